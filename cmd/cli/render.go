package cli

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
		renderTables(bw, w)
		fmt.Fprintln(bw)
		renderConditions(bw, w)
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
	for r, i := range bindingOrder(bs) {
		out[r] = &bs[i]
	}
	return out
}

// bindingOrder is the positions of bs in the order the outputs list
// them: by namespace, name and UID, the order in which
// binding.EvaluateEach hands on its outcomes.
func bindingOrder(bs []akv1.Binding) []int32 {
	ord := make([]int32, len(bs))
	for i := range ord {
		ord[i] = int32(i)
	}
	slices.SortFunc(ord, func(i, j int32) int {
		a, b := &bs[i], &bs[j]
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name), cmp.Compare(a.UID, b.UID))
	})
	return ord
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

// binding writes the item of Binding b with the conditions conds.
func (l *listOut) binding(b *akv1.Binding, conds []metav1.Condition) error {
	if !l.json {
		l.start()
		writeBindingYAML(l.w, b, conds)
		return nil
	}
	return l.item(item{APIVersion: akv1.APIVersion, Kind: akv1.KindBinding,
		Metadata: itemMeta{Name: b.Name, Namespace: b.Namespace, UID: string(b.UID), Generation: b.Generation},
		Status:   akv1.BindingStatus{Conditions: conds}})
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

// finish writes w's Bindings (none when they were written as they were
// decided) and every other object, in table order, and ends the List.
func (l *listOut) finish(w *world) error {
	for _, b := range sortedBindings(w.bindings) {
		if err := l.binding(b, b.Status.Conditions); err != nil {
			return err
		}
	}
	if err := otherItems(w, l.item); err != nil {
		return err
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
