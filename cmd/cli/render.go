package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/condengine/condengine/manifest"
	"github.com/condengine/condengine/system"
)

func render(out io.Writer, format string, w *world) error {
	bw := bufio.NewWriterSize(out, 64<<10)
	return renderRest(bw, listFor(bw, format), w)
}

// listFor is the List writer of the yaml and json formats, nil for the
// table.
func listFor(bw *bufio.Writer, format string) *listOut {
	if format != "yaml" && format != "json" {
		return nil
	}
	return &listOut{w: bw, json: format == "json"}
}

// renderRest writes what is left of w to bw, through list or, when list
// is nil, as the tables, and flushes bw.
func renderRest(bw *bufio.Writer, list *listOut, w *world) error {
	if list != nil {
		if err := list.finish(w); err != nil {
			return err
		}
	} else {
		if err := renderTables(bw, w); err != nil {
			return err
		}
		fmt.Fprintln(bw)
		if err := renderConditions(bw, w); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// renderTables prints `kubectl get -A` of every kind present, system by
// system, each after the command that would print it: a system's own
// tables (system.Stream.Table), or those its kinds' views make.
func renderTables(out io.Writer, w *world) error {
	first := true
	sep := func() {
		if !first {
			fmt.Fprintln(out)
		}
		first = false
	}
	for _, p := range w.parts {
		if p.stream != nil {
			var b bytes.Buffer
			if err := p.stream.Table(&b); err != nil {
				return err
			}
			if b.Len() > 0 {
				sep()
				_, _ = out.Write(b.Bytes()) // out keeps the error for render's Flush
			}
			continue
		}
		for _, v := range views(p.sys) {
			objs := objectsOf(p.objects, v.kind.Kind)
			if len(objs) == 0 {
				continue
			}
			sep()
			fmt.Fprintf(out, "$ kubectl get %s -A\n", resource(v.kind))
			tw := tabwriter.NewWriter(out, 6, 4, 3, ' ', 0)
			var header []string
			if v.kind.Namespaced {
				header = append(header, "NAMESPACE")
			}
			header = append(header, "NAME")
			for _, c := range v.columns {
				header = append(header, strings.ToUpper(c.Name))
			}
			writeRow(tw, header)
			for _, ev := range objs {
				var row []string
				if v.kind.Namespaced {
					row = append(row, ev.namespace)
				}
				row = append(row, ev.name)
				for _, c := range v.columns {
					row = append(row, v.cell(c, ev, w.now))
				}
				writeRow(tw, row)
			}
			_ = tw.Flush()
		}
	}
	return nil
}

func writeRow(tw io.Writer, cells []string) {
	for i, c := range cells {
		if i > 0 {
			io.WriteString(tw, "\t")
		}
		io.WriteString(tw, flat(c))
	}
	io.WriteString(tw, "\n")
}

// flat keeps a cell on one line so no value can forge a row.
func flat(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f' {
			return ' '
		}
		return r
	}, s)
}

// renderConditions prints every object's full condition list, in the
// order of the tables.
func renderConditions(out io.Writer, w *world) error {
	fmt.Fprintln(out, "Conditions:")
	for _, p := range w.parts {
		if p.stream != nil {
			err := p.stream.Objects(func(o *system.Object) error {
				conditionBlock(out, o.Kind, manifest.JoinName(o.Namespace, o.Name), o.Conditions)
				return nil
			})
			if err != nil {
				return err
			}
			continue
		}
		for _, v := range views(p.sys) {
			for _, ev := range objectsOf(p.objects, v.kind.Kind) {
				conditionBlock(out, ev.kind, manifest.JoinName(ev.namespace, ev.name), conditionsOf(ev.status))
			}
		}
	}
	return nil
}

func conditionBlock(out io.Writer, kind, name string, conds []metav1.Condition) {
	fmt.Fprintf(out, "\n%s %s\n", kind, name)
	if len(conds) == 0 {
		fmt.Fprintln(out, "  (no conditions)")
		return
	}
	var buf strings.Builder
	tw := tabwriter.NewWriter(&buf, 0, 4, 3, ' ', 0)
	writeRow(tw, []string{"  TYPE", "STATUS", "REASON", "GEN", "LAST TRANSITION", "MESSAGE"})
	for _, c := range conds {
		ltt := ""
		if !c.LastTransitionTime.IsZero() {
			ltt = c.LastTransitionTime.UTC().Format(time.RFC3339)
		}
		writeRow(tw, []string{"  " + c.Type, string(c.Status), c.Reason, fmt.Sprint(c.ObservedGeneration), ltt, c.Message})
	}
	_ = tw.Flush()
	// An empty message leaves the previous column's padding at the end of
	// the line; golden files and terminals are better without it.
	for _, line := range strings.SplitAfter(buf.String(), "\n") {
		if line == "" {
			continue
		}
		io.WriteString(out, strings.TrimRight(line, " \n")+"\n")
	}
}

// conditionsOf reads back the conditions of a computed status map.
func conditionsOf(status map[string]any) []metav1.Condition {
	raw, ok := status["conditions"]
	if !ok {
		return nil
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return nil
	}
	var out []metav1.Condition
	if json.Unmarshal(b, &out) != nil {
		return nil
	}
	return out
}

func conditionMap(c metav1.Condition) map[string]any {
	m := map[string]any{
		"type":               c.Type,
		"status":             string(c.Status),
		"reason":             c.Reason,
		"message":            c.Message,
		"observedGeneration": c.ObservedGeneration,
	}
	if !c.LastTransitionTime.IsZero() {
		m["lastTransitionTime"] = c.LastTransitionTime.UTC().Format(time.RFC3339)
	}
	return m
}

// item is one object of the yaml and json output: its identity and the
// status the engine computed, as kubectl get -o yaml would show it.
type item struct {
	APIVersion string   `json:"apiVersion"`
	Kind       string   `json:"kind"`
	Metadata   itemMeta `json:"metadata"`
	Status     any      `json:"status"`
}

type itemMeta struct {
	Name       string `json:"name"`
	Namespace  string `json:"namespace,omitempty"`
	UID        string `json:"uid,omitempty"`
	Generation int64  `json:"generation,omitempty"`
}

// conditionsStatus is the status of an object whose status is its
// conditions (system.Object).
type conditionsStatus struct {
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

func otherItem(ev *evaluated) item {
	it := item{Kind: ev.kind, Metadata: itemMeta{Name: ev.name, Namespace: ev.namespace}, Status: ev.status}
	it.APIVersion, _ = ev.object["apiVersion"].(string)
	if md, ok := ev.object["metadata"].(map[string]any); ok {
		it.Metadata.UID, _ = md["uid"].(string)
		if g, ok := md["generation"].(json.Number); ok {
			it.Metadata.Generation, _ = g.Int64()
		}
	}
	return it
}

// listOut writes the v1 List of the yaml and json outputs, as kubectl
// get -o yaml|json prints it, one item at a time, so that eval can write
// each result as soon as it is decided. Nothing is written before the
// first item: an evaluation that fails before it leaves the output
// empty. Write errors stay in the bufio.Writer for its Flush.
type listOut struct {
	w    *bufio.Writer
	json bool
	n    int // items written
}

// object writes the item of an object whose status is its conditions.
func (l *listOut) object(o *system.Object) error {
	if !l.json {
		l.start()
		writeObjectYAML(l.w, o)
		return nil
	}
	return l.item(item{APIVersion: o.APIVersion, Kind: o.Kind,
		Metadata: itemMeta{Name: o.Name, Namespace: o.Namespace, UID: string(o.UID), Generation: o.Generation},
		Status:   conditionsStatus{Conditions: o.Conditions}})
}

// objects writes the items of a part read as JSON: the objects of the
// system's kinds in table order, then the objects of other kinds its
// runner reported (the OpenCost pricing document a PriceBook election
// pushes), in the runner's order.
func (l *listOut) objects(p *part) error {
	for _, k := range p.sys.Kinds {
		for _, ev := range objectsOf(p.objects, k.Kind) {
			if err := l.item(otherItem(ev)); err != nil {
				return err
			}
		}
	}
	for i := range p.objects {
		if _, ok := p.sys.Kind(p.objects[i].kind); !ok {
			if err := l.item(otherItem(&p.objects[i])); err != nil {
				return err
			}
		}
	}
	return nil
}

// item writes one item.
func (l *listOut) item(it item) error {
	if l.json {
		b, err := json.MarshalIndent(it, "    ", "  ")
		if err != nil {
			return err
		}
		l.start()
		l.w.WriteString("\n    ")
		l.w.Write(b)
		return nil
	}
	b, err := yaml.Marshal(it)
	if err != nil {
		return err
	}
	l.start()
	lines := strings.SplitAfter(strings.TrimRight(string(b), "\n"), "\n")
	for i, line := range lines {
		if i == 0 {
			l.w.WriteString("- ")
		} else {
			l.w.WriteString("  ")
		}
		l.w.WriteString(line)
	}
	l.w.WriteString("\n")
	return nil
}

// start writes what comes before an item: the List's head before the
// first, a comma between JSON items.
func (l *listOut) start() {
	switch {
	case l.n > 0 && l.json:
		l.w.WriteString(",")
	case l.json:
		l.w.WriteString(jsonHead)
	default:
		if l.n == 0 {
			l.w.WriteString("apiVersion: v1\nitems:\n")
		}
	}
	l.n++
}

const jsonHead = "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"List\",\n  \"metadata\": {},\n  \"items\": ["

// finish writes the objects of w not written as they were decided,
// system by system, and ends the List.
func (l *listOut) finish(w *world) error {
	for _, p := range w.parts {
		if p.written {
			continue
		}
		var err error
		if p.stream != nil {
			err = p.stream.Objects(l.object)
		} else {
			err = l.objects(p)
		}
		if err != nil {
			return err
		}
	}
	switch {
	case l.json && l.n == 0:
		l.w.WriteString(jsonHead + "]\n}\n")
	case l.json:
		l.w.WriteString("\n  ]\n}\n")
	case l.n == 0:
		l.w.WriteString("apiVersion: v1\nitems: []\nkind: List\nmetadata: {}\n")
	default:
		l.w.WriteString("kind: List\nmetadata: {}\n")
	}
	return nil
}
