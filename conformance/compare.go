package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/condengine/condengine/internal/decimal"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

// Difference is one field on which an implementation's answer and the
// engine's disagree.
type Difference struct {
	// Object is the object's ID ("Kind namespace/name").
	Object string `json:"object"`
	// Field is the path of the field, e.g. "conditions[Ready].reason",
	// "status.activatedAt", or "" when the whole object is missing or
	// unexpected.
	Field string `json:"field,omitempty"`
	// Want is the engine's value and Got the implementation's, as JSON;
	// "" for absent.
	Want string `json:"want"`
	Got  string `json:"got"`
	// Invalid, when set, says why the API server would refuse the
	// implementation's status, whatever the engine wrote (Validate).
	Invalid string `json:"invalid,omitempty"`
}

// String reads "Binding team-a/b1: conditions[Ready].reason: want "A",
// got "B"", or for a status the API server would refuse
// "Binding team-a/b1: conditions[0].message: the API server refuses this
// status: Required value".
func (d Difference) String() string {
	where := d.Object
	if d.Field != "" {
		where += ": " + d.Field
	}
	if d.Invalid != "" {
		return fmt.Sprintf("%s: the API server refuses this status: %s", where, d.Invalid)
	}
	return fmt.Sprintf("%s: want %s, got %s", where, orAbsent(d.Want), orAbsent(d.Got))
}

func orAbsent(s string) string {
	if s == "" {
		return "(absent)"
	}
	return s
}

// Compare lists every difference between the engine's answer (want) and
// an implementation's (got), in the order of want's objects and then
// got's extra ones. Objects are matched by kind, namespace and name,
// conditions by type; list order does not matter for either. Every
// condition field is compared, lastTransitionTime to the second; status
// fields are compared as JSON values, numbers by value, and a field whose
// value is its type's zero value (null, "", false, 0, [], {}) the same as
// an absent one. A declared retryAt is compared to the nanosecond. Nil
// means the answers agree.
func Compare(want, got []Object) []Difference {
	return CompareWith(want, got, CompareOptions{AnyOrder: true})
}

// CompareOptions say what CompareWith compares beyond conditions and
// status fields.
type CompareOptions struct {
	// AnyOrder, when set, ignores the order of an object's conditions;
	// by default the order of their types must be the engine's, since
	// the list is written as it is.
	AnyOrder bool
	// Keys are the decision keys (DecisionKeys) the implementation
	// declares; each is compared on every object, and one it leaves out
	// is a difference.
	Keys []string
	// Only, when not empty, restricts the comparison to a subset: a
	// selector "Kind" keeps that kind whole, "Kind:Type" keeps only the
	// condition Type of that kind (no status fields, no decisions).
	// Objects of other kinds are left out on both sides.
	Only []string
}

// CompareWith is Compare with options: condition order (strict unless
// AnyOrder), the declared decision keys and a subset.
func CompareWith(want, got []Object, opts CompareOptions) []Difference {
	if len(opts.Only) > 0 {
		want, got = restrict(want, opts.Only), restrict(got, opts.Only)
	}
	type key struct{ kind, ns, name string }
	byKey := make(map[key][]int, len(got))
	for i, o := range got {
		k := key{o.Kind, o.Namespace, o.Name}
		byKey[k] = append(byKey[k], i)
	}
	var out []Difference
	seen := make(map[key]bool, len(want))
	for _, w := range want {
		k := key{w.Kind, w.Namespace, w.Name}
		seen[k] = true
		idx := byKey[k]
		switch len(idx) {
		case 0:
			out = append(out, Difference{Object: w.ID(), Want: "listed", Got: ""})
			continue
		case 1:
		default:
			out = append(out, Difference{Object: w.ID(), Want: "listed once", Got: fmt.Sprintf("listed %d times", len(idx))})
			continue
		}
		g := got[idx[0]]
		out = append(out, compareConditions(w.ID(), w.Conditions, g.Conditions)...)
		if !opts.AnyOrder {
			out = append(out, compareOrder(w.ID(), w.Conditions, g.Conditions)...)
		}
		out = append(out, compareStatus(w.ID(), w.Status, g.Status)...)
		out = append(out, compareKeys(w, g, opts.Keys)...)
	}
	for _, g := range got {
		k := key{g.Kind, g.Namespace, g.Name}
		if !seen[k] {
			seen[k] = true
			out = append(out, Difference{Object: g.ID(), Want: "", Got: "listed"})
		}
	}
	return out
}

func compareConditions(id string, want, got []metav1.Condition) []Difference {
	var out []Difference
	gotBy := map[string][]metav1.Condition{}
	for _, c := range got {
		gotBy[c.Type] = append(gotBy[c.Type], c)
	}
	field := func(typ, f string) string { return "conditions[" + typ + "]" + f }
	wanted := map[string]bool{}
	for _, w := range want {
		wanted[w.Type] = true
		gs := gotBy[w.Type]
		switch len(gs) {
		case 0:
			out = append(out, Difference{Object: id, Field: field(w.Type, ""), Want: condSummary(w)})
			continue
		case 1:
		default:
			out = append(out, Difference{Object: id, Field: field(w.Type, ""), Want: "listed once", Got: fmt.Sprintf("listed %d times", len(gs))})
			continue
		}
		g := gs[0]
		type pair struct{ name, w, g string }
		for _, p := range []pair{
			{"status", quote(string(w.Status)), quote(string(g.Status))},
			{"reason", quote(w.Reason), quote(g.Reason)},
			{"message", quote(w.Message), quote(g.Message)},
			{"observedGeneration", strconv.FormatInt(w.ObservedGeneration, 10), strconv.FormatInt(g.ObservedGeneration, 10)},
			{"lastTransitionTime", quote(stamp(w.LastTransitionTime)), quote(stamp(g.LastTransitionTime))},
		} {
			if p.w != p.g {
				out = append(out, Difference{Object: id, Field: field(w.Type, "."+p.name), Want: p.w, Got: p.g})
			}
		}
	}
	var extra []string
	for typ := range gotBy {
		if !wanted[typ] {
			extra = append(extra, typ)
		}
	}
	slices.Sort(extra)
	for _, typ := range extra {
		out = append(out, Difference{Object: id, Field: field(typ, ""), Got: condSummary(gotBy[typ][0])})
	}
	return out
}

// compareOrder compares the order of the condition types both lists
// hold; a missing or extra type is reported by compareConditions.
func compareOrder(id string, want, got []metav1.Condition) []Difference {
	in := func(cs []metav1.Condition) map[string]bool {
		m := make(map[string]bool, len(cs))
		for _, c := range cs {
			m[c.Type] = true
		}
		return m
	}
	inWant, inGot := in(want), in(got)
	var w, g []string
	for _, c := range want {
		if inGot[c.Type] {
			w = append(w, c.Type)
		}
	}
	for _, c := range got {
		if inWant[c.Type] && !slices.Contains(g, c.Type) {
			g = append(g, c.Type)
		}
	}
	if slices.Equal(w, g) {
		return nil
	}
	return []Difference{{Object: id, Field: "conditions (order)", Want: strings.Join(w, ", "), Got: strings.Join(g, ", ")}}
}

// compareKeys compares the decision keys the implementation declares.
func compareKeys(w, g Object, keys []string) []Difference {
	var out []Difference
	flag := func(b *bool) string {
		if b == nil {
			return ""
		}
		return strconv.FormatBool(*b)
	}
	// retryAt is an instant the policy computes exactly: compared to the
	// nanosecond, not to the second as a stored lastTransitionTime.
	instant := func(t *time.Time) string {
		if t == nil {
			return "null"
		}
		return quote(t.UTC().Format(time.RFC3339Nano))
	}
	for _, k := range keys {
		var a, b string
		switch k {
		case KeyWrite:
			a, b = flag(w.Write), flag(g.Write)
		case KeyRemoveFinalizer:
			a, b = flag(w.RemoveFinalizer), flag(g.RemoveFinalizer)
		case KeyRetryAt:
			a, b = instant(w.RetryAt), instant(g.RetryAt)
		default:
			continue
		}
		if a != b {
			out = append(out, Difference{Object: w.ID(), Field: k, Want: a, Got: b})
		}
	}
	return out
}

// restrict keeps the part of objs the selectors name (CompareOptions.Only).
func restrict(objs []Object, only []string) []Object {
	whole := map[string]bool{}
	types := map[string][]string{}
	for _, s := range only {
		kind, typ, ok := strings.Cut(s, ":")
		if ok {
			types[kind] = append(types[kind], typ)
		} else {
			whole[kind] = true
		}
	}
	var out []Object
	for _, o := range objs {
		switch {
		case whole[o.Kind]:
			out = append(out, o)
		case types[o.Kind] != nil:
			r := Object{Kind: o.Kind, Namespace: o.Namespace, Name: o.Name, Absent: o.Absent}
			for _, c := range o.Conditions {
				if slices.Contains(types[o.Kind], c.Type) {
					r.Conditions = append(r.Conditions, c)
				}
			}
			out = append(out, r)
		}
	}
	return out
}

// ValidOnly reports a selector of CompareOptions.Only that names no
// status kind of sys (the kinds an answer lists), or an empty condition
// type.
func ValidOnly(sys *system.System, only []string) error {
	kinds := sys.StatusKinds()
	slices.Sort(kinds)
	for _, s := range only {
		kind, typ, hasType := strings.Cut(s, ":")
		if !slices.Contains(kinds, kind) {
			return fmt.Errorf("%q: %q is not a kind %s answers for (%s)", s, kind, sys.Name, strings.Join(kinds, ", "))
		}
		if hasType && typ == "" {
			return fmt.Errorf("%q: the condition type after ':' is empty", s)
		}
	}
	return nil
}

// Validate reports what the API server would refuse in an
// implementation's answer to f, as it validates a status with
// metav1.Condition fields: a required key left out, a type or reason of
// the wrong form, a status other than True, False or Unknown, two
// conditions of one type, and an observedGeneration above the object's
// metadata.generation. It is reported even when the engine would have
// written the same values.
func Validate(f *scenario.File, got []Object) []Difference {
	type carried struct {
		gen   int64
		conds map[string]int64 // observedGeneration by type
	}
	objs := map[string]carried{}
	for _, m := range f.Objects {
		var meta struct {
			Kind     string `json:"kind"`
			Metadata struct {
				Namespace  string `json:"namespace"`
				Name       string `json:"name"`
				Generation int64  `json:"generation"`
			} `json:"metadata"`
			Status struct {
				Conditions []metav1.Condition `json:"conditions"`
			} `json:"status"`
		}
		if err := json.Unmarshal(m, &meta); err != nil {
			continue
		}
		c := carried{gen: meta.Metadata.Generation, conds: map[string]int64{}}
		for _, cond := range meta.Status.Conditions {
			c.conds[cond.Type] = cond.ObservedGeneration
		}
		objs[Object{Kind: meta.Kind, Namespace: meta.Metadata.Namespace, Name: meta.Metadata.Name}.ID()] = c
	}
	var out []Difference
	for _, o := range got {
		id := o.ID()
		absent := map[string]bool{}
		for _, a := range o.Absent {
			absent[a] = true
			out = append(out, Difference{Object: id, Field: a, Invalid: "Required value: the key is missing"})
		}
		for _, e := range metav1validation.ValidateConditions(o.Conditions, field.NewPath("conditions")) {
			if absent[e.Field] {
				continue // reported as missing above
			}
			out = append(out, Difference{Object: id, Field: e.Field, Invalid: e.ErrorBody()})
		}
		in, known := objs[id]
		for i, c := range o.Conditions {
			// A condition the object already carried with a newer
			// generation is a snapshot that lags, kept as it was; one
			// written with it is wrong.
			if was, kept := in.conds[c.Type]; known && c.ObservedGeneration > in.gen && !(kept && was == c.ObservedGeneration) {
				out = append(out, Difference{Object: id, Field: fmt.Sprintf("conditions[%d].observedGeneration", i),
					Invalid: fmt.Sprintf("%d is above the object's metadata.generation %d", c.ObservedGeneration, in.gen)})
			}
		}
	}
	return out
}

func condSummary(c metav1.Condition) string {
	return quote(string(c.Status) + " " + c.Reason)
}

func stamp(t metav1.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Truncate(time.Second).Format(time.RFC3339)
}

func quote(s string) string {
	b, _ := marshal(s)
	return string(b)
}

// marshal is json.Marshal without the HTML escapes: "->" stays "->" in
// every report and answer.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// compareStatus compares two status-field objects as JSON values.
func compareStatus(id string, want, got json.RawMessage) []Difference {
	w, err := decodeValue(want)
	if err != nil {
		return []Difference{{Object: id, Field: "status", Want: "a JSON object", Got: "not one: " + err.Error()}}
	}
	g, err := decodeValue(got)
	if err != nil {
		return []Difference{{Object: id, Field: "status", Want: "a JSON object", Got: "not JSON: " + err.Error()}}
	}
	var out []Difference
	diffValues(id, "status", w, g, &out)
	return out
}

func decodeValue(raw json.RawMessage) (any, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if v == nil {
		return map[string]any{}, nil
	}
	return v, nil
}

// diffValues compares two JSON values under the one rule of absence: a
// field whose value is its type's zero value (null, "", false, 0, an
// empty list or an empty object) may be left out, and then compares
// equal to the zero value, either way round. An object left out reads as
// an empty object, so a nested field follows the same rule.
func diffValues(id, path string, wAsIs, gAsIs any, out *[]Difference) {
	w, g := wAsIs, gAsIs
	if w == nil {
		w = zeroLike(g)
	}
	if g == nil {
		g = zeroLike(w)
	}
	wm, wIsMap := w.(map[string]any)
	gm, gIsMap := g.(map[string]any)
	if wIsMap && gIsMap {
		keys := make([]string, 0, len(wm)+len(gm))
		for k := range wm {
			keys = append(keys, k)
		}
		for k := range gm {
			if _, ok := wm[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			diffValues(id, path+"."+k, wm[k], gm[k], out)
		}
		return
	}
	wl, wIsList := w.([]any)
	gl, gIsList := g.([]any)
	if wIsList && gIsList && len(wl) == len(gl) {
		for i := range wl {
			diffValues(id, fmt.Sprintf("%s[%d]", path, i), wl[i], gl[i], out)
		}
		return
	}
	if sameScalar(w, g) {
		return
	}
	*out = append(*out, Difference{Object: id, Field: path, Want: render(wAsIs), Got: render(gAsIs)})
}

// zeroLike is the zero value of v's JSON type: what an absent field is
// read as beside v. It is nil for null and for a value of no known type.
func zeroLike(v any) any {
	switch v.(type) {
	case map[string]any:
		return map[string]any{}
	case []any:
		return []any{}
	case string:
		return ""
	case bool:
		return false
	case json.Number:
		return json.Number("0")
	}
	return nil
}

func sameScalar(w, g any) bool {
	wn, wNum := w.(json.Number)
	gn, gNum := g.(json.Number)
	if wNum && gNum {
		return decimal.Equal(string(wn), string(gn))
	}
	if _, ok := w.(map[string]any); ok {
		return false
	}
	if _, ok := w.([]any); ok {
		return false
	}
	return w == g
}

// render is a value as compact JSON, cut to a readable length; "" for
// absent.
func render(v any) string {
	if v == nil {
		return ""
	}
	b, err := marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	const limit = 200
	if len(b) > limit {
		return string(b[:limit]) + "…"
	}
	return string(b)
}

// FormatDifferences renders differences one per line.
func FormatDifferences(ds []Difference) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	return b.String()
}
