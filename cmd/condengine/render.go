package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding/kubectl"
	"github.com/condengine/condengine/manifest"
)

func render(out io.Writer, format string, w *world) error {
	bw := bufio.NewWriterSize(out, 64<<10)
	var err error
	switch format {
	case "yaml":
		err = renderYAML(bw, w)
	case "json":
		err = renderJSON(bw, w)
	default:
		renderTables(bw, w)
		fmt.Fprintln(bw)
		renderConditions(bw, w)
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

// column is one column of a FinOps kind's table, as its CRD's printer
// columns say; the namespace comes first for namespaced kinds, as with
// kubectl get -A.
type column struct {
	header string
	value  func(ev *evaluated) string
}

type kindView struct {
	kind, resource string
	clusterScoped  bool
	columns        []column
}

func statusField(name string) column {
	return column{strings.ToUpper(name), func(ev *evaluated) string { return scalar(ev.status[name]) }}
}

func specField(header string, path ...string) column {
	return column{header, func(ev *evaluated) string {
		var v any = ev.object
		for _, p := range append([]string{"spec"}, path...) {
			m, ok := v.(map[string]any)
			if !ok {
				return ""
			}
			v = m[p]
		}
		return scalar(v)
	}}
}

var finopsViews = []kindView{
	{kind: "PriceBook", resource: "pricebooks", columns: []column{statusField("active"), statusField("ready")}},
	{kind: "Offering", resource: "offerings", columns: []column{statusField("ready")}},
	{kind: "Subscription", resource: "subscriptions", columns: []column{statusField("ready")}},
	{kind: "CostJob", resource: "costjobs", columns: []column{specField("TYPE", "type"), {"LAST STATUS", func(ev *evaluated) string { return scalar(ev.status["lastExecutionStatus"]) }}}},
	{kind: "FinOpsProvider", resource: "finopsproviders", clusterScoped: true},
}

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

// renderTables prints `kubectl get -A` of every kind present, Bindings
// first, each after the command that would print it.
func renderTables(out io.Writer, w *world) {
	first := true
	sep := func() {
		if !first {
			fmt.Fprintln(out)
		}
		first = false
	}
	if len(w.bindings) > 0 {
		sep()
		fmt.Fprintln(out, "$ kubectl get akbinding -A")
		_ = kubectl.Write(out, w.bindings, w.now) // out keeps the error for render's Flush
	}
	for _, v := range finopsViews {
		objs := objectsOf(w.others, v.kind)
		if len(objs) == 0 {
			continue
		}
		sep()
		fmt.Fprintf(out, "$ kubectl get %s -A\n", v.resource)
		tw := tabwriter.NewWriter(out, 6, 4, 3, ' ', 0)
		var header []string
		if !v.clusterScoped {
			header = append(header, "NAMESPACE")
		}
		header = append(header, "NAME")
		for _, c := range v.columns {
			header = append(header, c.header)
		}
		writeRow(tw, append(header, "AGE"))
		for _, ev := range objs {
			var row []string
			if !v.clusterScoped {
				row = append(row, ev.namespace)
			}
			row = append(row, ev.name)
			for _, c := range v.columns {
				row = append(row, c.value(ev))
			}
			writeRow(tw, append(row, kubectl.Age(ev.created, w.now)))
		}
		_ = tw.Flush()
	}
}

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
func renderConditions(out io.Writer, w *world) {
	fmt.Fprintln(out, "Conditions:")
	for _, b := range sortedBindings(w.bindings) {
		conditionBlock(out, akv1.KindBinding, manifest.JoinName(b.Namespace, b.Name), b.Status.Conditions)
	}
	for _, v := range finopsViews {
		for _, ev := range objectsOf(w.others, v.kind) {
			conditionBlock(out, ev.kind, manifest.JoinName(ev.namespace, ev.name), conditionsOf(ev.status))
		}
	}
}

func sortedBindings(bs []akv1.Binding) []*akv1.Binding {
	out := make([]*akv1.Binding, len(bs))
	for i := range bs {
		out[i] = &bs[i]
	}
	slices.SortFunc(out, func(a, b *akv1.Binding) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name), cmp.Compare(a.UID, b.UID))
	})
	return out
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

// items calls fn for every object in table order, building one item at a
// time so a large stream is never held twice.
func items(w *world, fn func(item) error) error {
	for _, b := range sortedBindings(w.bindings) {
		it := item{APIVersion: akv1.APIVersion, Kind: akv1.KindBinding,
			Metadata: itemMeta{Name: b.Name, Namespace: b.Namespace, UID: string(b.UID), Generation: b.Generation},
			Status:   akv1.BindingStatus{Conditions: b.Status.Conditions}}
		if err := fn(it); err != nil {
			return err
		}
	}
	return otherItems(w, fn)
}

// otherItems calls fn for every object but the Bindings, in table order.
func otherItems(w *world, fn func(item) error) error {
	for _, v := range finopsViews {
		for _, ev := range objectsOf(w.others, v.kind) {
			if err := fn(otherItem(ev)); err != nil {
				return err
			}
		}
	}
	// Kinds without a table (the OpenCost pricing document a PriceBook
	// election pushes) come last, in the runner's order.
	for i := range w.others {
		if !hasView(w.others[i].kind) {
			if err := fn(otherItem(&w.others[i])); err != nil {
				return err
			}
		}
	}
	return nil
}

func hasView(kind string) bool {
	for _, v := range finopsViews {
		if v.kind == kind {
			return true
		}
	}
	return false
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

// renderYAML prints a v1 List, as kubectl get -o yaml does, one item at a
// time.
func renderYAML(out *bufio.Writer, w *world) error {
	if len(w.bindings)+len(w.others) == 0 {
		out.WriteString("apiVersion: v1\nitems: []\nkind: List\nmetadata: {}\n")
		return nil
	}
	out.WriteString("apiVersion: v1\nitems:\n")
	for _, b := range sortedBindings(w.bindings) {
		writeBindingYAML(out, b)
	}
	err := otherItems(w, func(it item) error {
		b, err := yaml.Marshal(it)
		if err != nil {
			return err
		}
		lines := strings.SplitAfter(strings.TrimRight(string(b), "\n"), "\n")
		for i, l := range lines {
			if i == 0 {
				out.WriteString("- ")
			} else {
				out.WriteString("  ")
			}
			out.WriteString(l)
		}
		out.WriteString("\n")
		return nil
	})
	if err != nil {
		return err
	}
	out.WriteString("kind: List\nmetadata: {}\n")
	return nil
}

// renderJSON prints a v1 List as indented JSON, one item at a time.
func renderJSON(out *bufio.Writer, w *world) error {
	io.WriteString(out, "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"List\",\n  \"metadata\": {},\n  \"items\": [")
	n := 0
	err := items(w, func(it item) error {
		b, err := json.MarshalIndent(it, "    ", "  ")
		if err != nil {
			return err
		}
		if n > 0 {
			io.WriteString(out, ",")
		}
		n++
		io.WriteString(out, "\n    ")
		_, err = out.Write(b)
		return err
	})
	if err != nil {
		return err
	}
	if n > 0 {
		io.WriteString(out, "\n  ")
	}
	io.WriteString(out, "]\n}\n")
	return nil
}
