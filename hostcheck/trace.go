package hostcheck

import (
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// The trace a counterexample prints names objects, not indexes: an edit
// reads as the objects it changed and, for each, a diff of its spec
// (and of its deletion, finalizers, labels and conditions), so a reader
// need not know how the harness draws its targets.

// describeChange says what changed between two listings of the store,
// one line per object: created, deleted, or each field that changed.
func describeChange(before, after []*unstructured.Unstructured) []string {
	old := map[ObjectKey]*unstructured.Unstructured{}
	for _, u := range before {
		old[keyOf(u)] = u
	}
	var out []string
	for _, u := range after {
		k := keyOf(u)
		o := old[k]
		delete(old, k)
		switch {
		case o == nil:
			out = append(out, fmt.Sprintf("%s is created%s", k, brief(u)))
		case o.GetResourceVersion() != u.GetResourceVersion():
			d := objectDiff(o, u)
			if len(d) == 0 {
				d = []string{"nothing we read changed"}
			}
			out = append(out, fmt.Sprintf("%s: %s", k, strings.Join(d, "; ")))
		}
	}
	gone := slices.SortedFunc(maps.Keys(old), func(a, b ObjectKey) int { return strings.Compare(a.String(), b.String()) })
	for _, k := range gone {
		out = append(out, fmt.Sprintf("%s is deleted", k))
	}
	return out
}

// brief is a created object's spec in one line, its first six fields.
func brief(u *unstructured.Unstructured) string {
	spec, _, _ := unstructured.NestedMap(u.Object, "spec")
	if len(spec) == 0 {
		return ""
	}
	var parts []string
	leaves := flatten("spec", spec)
	for i, p := range leaves {
		if i == 6 {
			parts = append(parts, fmt.Sprintf("and %d more", len(leaves)-6))
			break
		}
		parts = append(parts, p.path+"="+show(p.v))
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

type leaf struct {
	path string
	v    any
}

// flatten lists the leaves of a nested map by dotted path, in order.
func flatten(prefix string, v any) []leaf {
	m, ok := v.(map[string]any)
	if !ok {
		return []leaf{{prefix, v}}
	}
	var out []leaf
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, flatten(prefix+"."+k, m[k])...)
	}
	return out
}

// objectDiff lists the changes of one object a reader cares about: its
// spec field by field, generation, deletion, finalizers, labels and each
// status condition by type.
func objectDiff(a, b *unstructured.Unstructured) []string {
	var out []string
	as, _, _ := unstructured.NestedMap(a.Object, "spec")
	bs, _, _ := unstructured.NestedMap(b.Object, "spec")
	av, bv := map[string]any{}, map[string]any{}
	for _, l := range flatten("spec", as) {
		av[l.path] = l.v
	}
	for _, l := range flatten("spec", bs) {
		bv[l.path] = l.v
	}
	for _, p := range slices.Sorted(maps.Keys(merge(av, bv))) {
		x, inA := av[p]
		y, inB := bv[p]
		switch {
		case !inA:
			out = append(out, fmt.Sprintf("%s set to %s", p, show(y)))
		case !inB:
			out = append(out, fmt.Sprintf("%s %s removed", p, show(x)))
		case !reflect.DeepEqual(x, y):
			out = append(out, fmt.Sprintf("%s %s → %s", p, show(x), show(y)))
		}
	}
	if a.GetGeneration() != b.GetGeneration() {
		out = append(out, fmt.Sprintf("generation %d → %d", a.GetGeneration(), b.GetGeneration()))
	}
	if a.GetDeletionTimestamp() == nil && b.GetDeletionTimestamp() != nil {
		out = append(out, "deletion requested")
	}
	if !slices.Equal(a.GetFinalizers(), b.GetFinalizers()) {
		out = append(out, fmt.Sprintf("finalizers %v → %v", a.GetFinalizers(), b.GetFinalizers()))
	}
	if !maps.Equal(a.GetLabels(), b.GetLabels()) {
		out = append(out, fmt.Sprintf("labels %v → %v", a.GetLabels(), b.GetLabels()))
	}
	ac, bc := conditionsOf(a), conditionsOf(b)
	for _, c := range bc {
		x := find(ac, c.Type)
		switch {
		case x == nil:
			out = append(out, fmt.Sprintf("condition %s written %s/%s@%d", c.Type, c.Status, c.Reason, c.ObservedGeneration))
		case !sameCondition(*x, c):
			out = append(out, fmt.Sprintf("condition %s %s/%s@%d → %s/%s@%d", c.Type, x.Status, x.Reason, x.ObservedGeneration, c.Status, c.Reason, c.ObservedGeneration))
		}
	}
	for _, c := range ac {
		if find(bc, c.Type) == nil {
			out = append(out, fmt.Sprintf("condition %s removed", c.Type))
		}
	}
	return out
}

func merge(a, b map[string]any) map[string]any {
	out := maps.Clone(a)
	maps.Copy(out, b)
	return out
}

// show prints a leaf value: strings quoted, lists and numbers as Go
// prints them.
func show(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(v)
}

// objectRef matches an event's reference to a world object by index,
// which the described change replaces by name.
var objectRef = regexp.MustCompile(` ?(on )?(the contested )?object #\d+| \(variant \d+\)`)

// nameEdit rewrites an edit's numbered line once its change is known:
// the object's index and variant give way to what changed.
func (r *run) nameEdit(at int, changes []string) {
	if at < 0 || at >= len(r.trace) {
		return
	}
	l := r.trace[at]
	if len(changes) == 0 {
		r.trace[at] = objectRef.ReplaceAllString(l, "") + ": no object changed"
		return
	}
	l = objectRef.ReplaceAllString(l, "")
	if len(changes) == 1 && !strings.Contains(l, ";") {
		r.trace[at] = l + ": " + changes[0]
		return
	}
	r.trace[at] = l
	lines := make([]string, 0, len(changes))
	for _, c := range changes {
		lines = append(lines, "       "+c)
	}
	r.trace = slices.Insert(r.trace, at+1, lines...)
}

// startLine names the objects the store starts with, up to a dozen.
func startLine(objs []*unstructured.Unstructured) string {
	names := make([]string, 0, min(len(objs), 12))
	for i, u := range objs {
		if i == 12 {
			names = append(names, fmt.Sprintf("and %d more", len(objs)-12))
			break
		}
		names = append(names, keyOf(u).String())
	}
	if len(names) == 0 {
		return "     the store starts empty"
	}
	return "     the store starts with " + strings.Join(names, ", ")
}

// reconcileLine matches a trace line of one reconcile that did nothing
// else worth a line.
var reconcileLine = regexp.MustCompile(`^     replica (\d) reconciles (\S+)$`)

// foldReconciles folds each burst of reconciles of one replica that
// wrote nothing into one line.
func foldReconciles(trace []string) []string {
	out := make([]string, 0, len(trace))
	for i := 0; i < len(trace); {
		m := reconcileLine.FindStringSubmatch(trace[i])
		if m == nil {
			out = append(out, trace[i])
			i++
			continue
		}
		names := []string{m[2]}
		j := i + 1
		for ; j < len(trace); j++ {
			n := reconcileLine.FindStringSubmatch(trace[j])
			if n == nil || n[1] != m[1] {
				break
			}
			names = append(names, n[2])
		}
		// The last reconcile of a burst may be the one whose writes
		// follow: it keeps a line of its own.
		if j < len(trace) && !strings.HasPrefix(trace[j], "---") && !isNumbered(trace[j]) && len(names) > 1 {
			j--
			names = names[:len(names)-1]
		}
		if len(names) == 1 {
			out = append(out, trace[i])
		} else {
			out = append(out, fmt.Sprintf("     replica %s reconciles %s (%d requests, nothing written)", m[1], strings.Join(names, ", "), len(names)))
		}
		i = j
	}
	return out
}

// isNumbered reports whether a trace line is a schedule event's.
func isNumbered(l string) bool {
	l = strings.TrimLeft(l, " ")
	i := strings.IndexByte(l, '.')
	return i > 0 && strings.Trim(l[:i], "0123456789") == ""
}
