package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
}

// String reads "Binding team-a/b1: conditions[Ready].reason: want "A", got "B"".
func (d Difference) String() string {
	where := d.Object
	if d.Field != "" {
		where += ": " + d.Field
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
// fields are compared as JSON values, with null the same as absent and
// numbers by value. Nil means the answers agree.
func Compare(want, got []Object) []Difference {
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
		out = append(out, compareStatus(w.ID(), w.Status, g.Status)...)
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
	b, _ := json.Marshal(s)
	return string(b)
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

func diffValues(id, path string, w, g any, out *[]Difference) {
	wm, wIsMap := w.(map[string]any)
	gm, gIsMap := g.(map[string]any)
	if wIsMap && gIsMap {
		keys := make([]string, 0, len(wm)+len(gm))
		for k, v := range wm {
			if v != nil {
				keys = append(keys, k)
			}
		}
		for k, v := range gm {
			if _, ok := wm[k]; v != nil && (!ok || wm[k] == nil) {
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
	*out = append(*out, Difference{Object: id, Field: path, Want: render(w), Got: render(g)})
}

func sameScalar(w, g any) bool {
	wn, wNum := w.(json.Number)
	gn, gNum := g.(json.Number)
	if wNum && gNum {
		if wn == gn {
			return true
		}
		a, okA := new(big.Rat).SetString(string(wn))
		b, okB := new(big.Rat).SetString(string(gn))
		return okA && okB && a.Cmp(b) == 0
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
	b, err := json.Marshal(v)
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
