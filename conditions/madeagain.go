package conditions

import (
	"time"
	"unsafe"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Object is what MergeObject reads of the object it merges for: its
// generation and its creationTimestamp. Every Kubernetes object
// (metav1.Object) has both.
type Object interface {
	GetGeneration() int64
	GetCreationTimestamp() metav1.Time
}

// Held returns the conditions of current that were written for this
// object: a condition of the vocabulary's types whose lastTransitionTime
// is set and before created was written for an earlier object of the
// same name (deleted and made again) and is left out, as if absent.
// Another writer's conditions are never left out: their lifetime is
// theirs to judge. A condition without a lastTransitionTime carries no
// evidence of its object and stays.
//
// When nothing is left out, Held returns current itself and allocates
// nothing.
func (v *Vocabulary) Held(current []metav1.Condition, created time.Time) []metav1.Condition {
	first := -1
	for i := range current {
		if v.madeBefore(current[i], created) {
			first = i
			break
		}
	}
	if first < 0 {
		return current
	}
	out := make([]metav1.Condition, first, len(current)-1)
	copy(out, current[:first])
	for _, c := range current[first+1:] {
		if !v.madeBefore(c, created) {
			out = append(out, c)
		}
	}
	return out
}

func (v *Vocabulary) madeBefore(c metav1.Condition, created time.Time) bool {
	return !c.LastTransitionTime.IsZero() && c.LastTransitionTime.Time.Before(created) && v.Index(c.Type) >= 0
}

// MergeObject is Merge for one object: the step every kind calls. Before
// Merge's rules run, the conditions left over from an earlier object of
// the same name (see Held) are read as absent, so none of them is kept,
// none lends its lastTransitionTime, and none makes the snapshot stale.
// Dropping one is a change: the object holds it and the result does not.
//
// A transition is never stamped before the object was created: when now
// is before the creationTimestamp (the host's clock behind the API
// server's), a new lastTransitionTime is the creation instant, rounded up
// to a whole second. Stamped at now, the condition would read as left
// over from an earlier object on the next pass and be written again on
// every pass until the host's clock caught up.
func (v *Vocabulary) MergeObject(obj Object, current, desired []metav1.Condition, now time.Time) MergeResult {
	created := obj.GetCreationTimestamp().Time
	held := v.Held(current, created)
	gen := obj.GetGeneration()
	// Merge, with the instant it may stamp worked out only when a
	// condition may need it (settled stamps nothing).
	var m MergeResult
	if v.settled(held, desired, gen) {
		m = MergeResult{Conditions: held}
	} else {
		m = v.merge(held, desired, gen, notBefore(now, created))
	}
	switch {
	case m.Stale:
		m.Conditions = current // nothing is written: the object as it is
	case len(held) != len(current):
		m.Changed = true
	}
	return m
}

// notBefore is now, or created rounded up to a whole second when now is
// before it: the earliest instant Merge may stamp on the object.
func notBefore(now, created time.Time) time.Time {
	if !now.Truncate(time.Second).Before(created) {
		return now
	}
	up := created.Truncate(time.Second)
	if up.Before(created) {
		up = up.Add(time.Second)
	}
	return up
}

// MergeVerdicts is MergeObject with the desired conditions given as the
// verdicts that decide them: vs[i] decides the condition of type
// types[i], as Verdict.Condition builds it. When the object already holds
// exactly those conditions, as it does on almost every pass, the answer
// is current itself, found by comparing each verdict with the condition
// in place, without building one; otherwise the conditions are built and
// merged. The answer is MergeObject's either way. types and vs are of
// one length.
func (v *Vocabulary) MergeVerdicts(obj Object, current []metav1.Condition, types []string, vs []Verdict, now time.Time) MergeResult {
	if v.settledVerdicts(current, types, vs, obj.GetGeneration(), obj.GetCreationTimestamp().Time) {
		return MergeResult{Conditions: current}
	}
	var buf [8]metav1.Condition
	desired := buf[:0]
	if len(vs) > len(buf) {
		desired = make([]metav1.Condition, 0, len(vs))
	}
	for i := range vs {
		desired = append(desired, vs[i].Condition(types[i]))
	}
	return v.MergeObject(obj, current, desired, now)
}

// settledVerdicts is MergeObject's quiet case read from verdicts: Held
// leaves nothing of current out, and settled holds for current and the
// conditions the verdicts build. Each condition of current is then of
// the vocabulary's types with a lastTransitionTime set, so Held leaves
// one out exactly when that time is before created.
func (v *Vocabulary) settledVerdicts(current []metav1.Condition, types []string, vs []Verdict, generation int64, created time.Time) bool {
	if len(current) != len(vs) {
		return false
	}
	t := 0 // the vocabulary index after the previous desired type
	for i := range vs {
		d, c, typ := &vs[i], &current[i], types[i]
		for t < len(v.types) && v.types[t].Name != typ {
			t++
		}
		if t == len(v.types) {
			return false
		}
		t++
		want := d.Generation
		if want == 0 {
			want = generation // rule 2: a zero observedGeneration is written as generation
		}
		if !same(c.Type, typ) || !same(string(c.Status), string(d.Status)) || !same(c.Reason, d.Reason) || !same(c.Message, d.Message) ||
			c.ObservedGeneration != want || c.ObservedGeneration > generation ||
			c.LastTransitionTime.IsZero() || c.LastTransitionTime.Time.Before(created) {
			return false
		}
	}
	return true
}

// same is a == b, decided without a call when the two share their bytes
// (a condition an engine wrote carries the engine's own strings) or
// differ in length.
func same(a, b string) bool {
	return len(a) == len(b) && (unsafe.StringData(a) == unsafe.StringData(b) || a == b)
}
