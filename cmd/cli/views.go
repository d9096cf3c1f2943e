package cli

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/condengine/condengine/binding/kubectl"
	"github.com/condengine/condengine/system"
)

// kindView is the table of one kind of a system read as JSON: the
// columns `kubectl get` prints after the namespace (for a namespaced
// kind) and the name.
type kindView struct {
	kind    system.Kind
	columns []system.PrinterColumn
}

// views are the tables of sys's kinds, in the order of its Kinds. A
// kind's columns are those of the default view its CRD declares
// (additionalPrinterColumns of priority 0), as kubectl prints them; a
// kind without declared columns gets one per condition type of its
// vocabulary (the type's status), then its age.
func views(sys *system.System) []kindView {
	out := make([]kindView, 0, len(sys.Kinds))
	for _, k := range sys.Kinds {
		v := kindView{kind: k}
		declared, err := sys.PrinterColumns(k)
		if err != nil {
			declared = nil // CRDs system.Validate refuses; the table still shows the conditions
		}
		for _, c := range declared {
			if c.Priority == 0 {
				v.columns = append(v.columns, c)
			}
		}
		if len(declared) == 0 {
			if k.Vocabulary != nil {
				for _, t := range k.Vocabulary.Types() {
					v.columns = append(v.columns, system.PrinterColumn{Name: t.Name, Type: "string",
						JSONPath: `.status.conditions[?(@.type=="` + t.Name + `")].status`})
				}
			}
			v.columns = append(v.columns, system.PrinterColumn{Name: "Age", Type: "date", JSONPath: ".metadata.creationTimestamp"})
		}
		out = append(out, v)
	}
	return out
}

// resource is the name `kubectl get` is shown with: the kind's first
// short name, else its plural.
func resource(k system.Kind) string {
	if len(k.ShortNames) > 0 {
		return k.ShortNames[0]
	}
	return k.Plural
}

// cell is the column's cell for ev at now: the first value its JSONPath
// selects in the object as read with the computed status, printed as
// kubectl prints it; a date is an age. A path this reader does not know,
// or one that selects nothing, leaves the cell empty.
func (v kindView) cell(c system.PrinterColumn, ev *evaluated, now time.Time) string {
	obj := make(map[string]any, len(ev.object)+1)
	for k, x := range ev.object {
		obj[k] = x
	}
	obj["status"] = ev.status
	if c.Type == "date" {
		var at time.Time
		if vals := jsonPath(obj, c.JSONPath); len(vals) > 0 {
			s, _ := vals[0].(string)
			at, _ = time.Parse(time.RFC3339, s)
		}
		return kubectl.Age(at, now)
	}
	vals := jsonPath(obj, c.JSONPath)
	if len(vals) == 0 {
		return ""
	}
	return scalar(vals[0])
}

// objectsOf are the objects of kind, by namespace and name.
func objectsOf(all []evaluated, kind string) []*evaluated {
	var out []*evaluated
	for i := range all {
		if all[i].kind == kind {
			out = append(out, &all[i])
		}
	}
	slices.SortFunc(out, func(a, b *evaluated) int {
		return cmp.Or(cmp.Compare(a.namespace, b.namespace), cmp.Compare(a.name, b.name))
	})
	return out
}

// scalar prints a value of a status or a spec as a table cell does.
func scalar(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		return fmt.Sprint(x)
	case json.Number:
		return x.String()
	default:
		b, _ := json.Marshal(x)
		return string(b)
	}
}

// jsonPath returns the values path selects in v, in order, for the
// JSONPath of CRD printer columns: fields (.a.b), indexes ([0]), every
// item ([*]) and a filter on a field ([?(@.type=="Ready")], == or !=,
// the value quoted or bare). nil for a path outside that, or one that
// selects nothing.
func jsonPath(v any, path string) []any {
	path = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(path), "{"), "}")
	cur := []any{v}
	for path != "" && len(cur) > 0 {
		switch {
		case path[0] == '.':
			end := strings.IndexAny(path[1:], ".[")
			if end < 0 {
				end = len(path) - 1
			}
			name := path[1 : 1+end]
			path = path[1+end:]
			if name == "" {
				return nil
			}
			cur = field(cur, name)
		case path[0] == '[':
			end := strings.Index(path, "]")
			if strings.HasPrefix(path, "[?(") {
				end = strings.Index(path, ")]") + 1
			}
			if end <= 0 {
				return nil
			}
			sel := path[1:end]
			path = path[end+1:]
			var ok bool
			if cur, ok = selectItems(cur, sel); !ok {
				return nil
			}
		default:
			return nil
		}
	}
	return cur
}

// field is the value of name in each map of vs that has it.
func field(vs []any, name string) []any {
	var out []any
	for _, v := range vs {
		if m, ok := v.(map[string]any); ok {
			if x, ok := m[name]; ok {
				out = append(out, x)
			}
		}
	}
	return out
}

// selectItems applies the bracket selector sel (without its brackets)
// to each list of vs.
func selectItems(vs []any, sel string) ([]any, bool) {
	var out []any
	switch {
	case sel == "*":
		for _, v := range vs {
			if l, ok := v.([]any); ok {
				out = append(out, l...)
			}
		}
	case strings.HasPrefix(sel, "?(@.") && strings.HasSuffix(sel, ")"):
		cond := sel[len("?(@.") : len(sel)-1]
		op := "=="
		at := strings.Index(cond, op)
		if ne := strings.Index(cond, "!="); ne >= 0 && (at < 0 || ne < at) {
			op, at = "!=", ne
		}
		if at < 0 {
			return nil, false
		}
		name := strings.TrimSpace(cond[:at])
		want := strings.TrimSpace(cond[at+2:])
		if len(want) >= 2 && (want[0] == '"' || want[0] == '\'') && want[len(want)-1] == want[0] {
			want = want[1 : len(want)-1]
		}
		for _, v := range vs {
			l, _ := v.([]any)
			for _, item := range l {
				got := jsonPath(item, "."+name)
				match := len(got) > 0 && scalar(got[0]) == want
				if match == (op == "==") {
					out = append(out, item)
				}
			}
		}
	default:
		i, err := strconv.Atoi(sel)
		if err != nil {
			return nil, false
		}
		for _, v := range vs {
			if l, ok := v.([]any); ok && i >= 0 && i < len(l) {
				out = append(out, l[i])
			}
		}
	}
	return out, true
}
