package conditions

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// MergeResult is what Merge decided for one object.
type MergeResult struct {
	// Conditions is the exact set to write. When Changed is false and
	// ours already stand first, in the vocabulary's order, it is the
	// current slice itself, so a settled object costs nothing. When
	// Changed is false but ours stand in another order (among themselves,
	// or after another writer's condition), it is a new slice holding the
	// same conditions with ours first (rules 5 and 6): order is not a
	// change (rule 7), so nothing is due, yet the list Merge answers with
	// is always in the one order it would write.
	Conditions []metav1.Condition
	// Changed reports whether Conditions differs from the current set
	// in any field of a condition of ours, observedGeneration included,
	// or in which of our types it holds; conditions are matched by type,
	// so order is not compared. A host writes the status only when it is
	// true.
	Changed bool
	// Stale reports that a condition of ours on the object describes a
	// newer generation than the snapshot's metadata.generation: the
	// snapshot lags the API server, so nothing may be written for it.
	Stale bool
	// Ignored lists desired types that Merge did not use: types outside
	// the vocabulary, and repeats of a type (the first one wins). It is
	// nil when every desired condition was used.
	Ignored []string
}

// Merge computes the condition set to write, from the set on the object
// (current) and the set the engine wants (desired). Its rules, in order:
//
//  1. If a condition of the vocabulary's types in current has an
//     observedGeneration above generation, the snapshot is stale: the
//     result is current, unchanged, with Stale set.
//  2. Each desired condition of the vocabulary's types is written, with
//     its status, reason, message and observedGeneration as given; an
//     observedGeneration left zero is the generation Merge is given.
//  3. Its lastTransitionTime is kept from current when the status is the
//     same there (a new reason or message does not move it); otherwise it
//     is now, truncated to whole seconds. A desired lastTransitionTime is
//     ignored: time belongs to Merge.
//  4. Types of the vocabulary present in current but absent from desired
//     are dropped.
//  5. Types outside the vocabulary in current belong to another writer:
//     they are kept untouched, in their order, after ours.
//  6. Ours come in the vocabulary's order, whatever the order of desired.
//  7. Changed is true when one of our types is added, dropped or held
//     twice, or differs from current in any field; an
//     observedGeneration-only change counts. Conditions are matched by
//     type: the order ours stand in, among themselves or among another
//     writer's conditions, is never a change. A host that writes with
//     server-side apply cannot choose where another manager's entries
//     sit, and counting any order would make a host write for it alone.
//
// Merge is pure and does not modify its arguments. When nothing changes
// it does not allocate.
func (v *Vocabulary) Merge(current, desired []metav1.Condition, generation int64, now time.Time) MergeResult {
	if v.settled(current, desired, generation) {
		return MergeResult{Conditions: current}
	}
	return v.merge(current, desired, generation, now)
}

// settled reports the case a host meets on almost every pass: current
// holds exactly the desired conditions, one for one and in the
// vocabulary's order, with no other writer's among them, each already as
// rules 2 and 3 would write it. It walks the two lists side by side and
// the vocabulary once, so it costs about what a controller's in-place
// meta.SetStatusCondition loop costs, and it builds nothing. Anything
// else (a repeat, a foreign or unknown type, another order, a stale or
// zero field) falls to merge, which decides every case.
func (v *Vocabulary) settled(current, desired []metav1.Condition, generation int64) bool {
	if len(current) != len(desired) {
		return false
	}
	t := 0 // the vocabulary index after the previous desired type
	for i := range desired {
		d, c := &desired[i], &current[i]
		for t < len(v.types) && v.types[t].Name != d.Type {
			t++
		}
		if t == len(v.types) {
			return false
		}
		t++
		want := d.ObservedGeneration
		if want == 0 {
			want = generation // rule 2: a zero observedGeneration is written as generation
		}
		if c.Type != d.Type || c.Status != d.Status || c.Reason != d.Reason || c.Message != d.Message ||
			c.ObservedGeneration != want || c.ObservedGeneration > generation ||
			c.LastTransitionTime.IsZero() {
			return false
		}
	}
	return true
}

// merge applies the rules to any pair of lists.
func (v *Vocabulary) merge(current, desired []metav1.Condition, generation int64, now time.Time) MergeResult {
	// Positions live in stack buffers, so the unchanged path allocates
	// nothing for the vocabularies and lists real objects carry.
	var dBuf, cBuf [32]int
	var kBuf [64]int
	dPos, cPos, kind := dBuf[:0], cBuf[:0], kBuf[:0]
	if len(v.types) > len(dBuf) {
		dPos, cPos = make([]int, 0, len(v.types)), make([]int, 0, len(v.types))
	}
	if len(current) > len(kBuf) {
		kind = make([]int, 0, len(current))
	}
	for range v.types {
		dPos = append(dPos, -1)
		cPos = append(cPos, -1)
	}
	// kind[i] is the vocabulary index of current[i], -1 for another
	// writer's condition.
	ours := 0
	for i := range current {
		t := v.Index(current[i].Type)
		kind = append(kind, t)
		if t < 0 {
			continue
		}
		if current[i].ObservedGeneration > generation {
			return MergeResult{Conditions: current, Stale: true}
		}
		ours++
		if cPos[t] < 0 {
			cPos[t] = i
		}
	}
	var ignored []string
	for i := range desired {
		t := v.Index(desired[i].Type)
		if t < 0 || dPos[t] >= 0 {
			ignored = append(ignored, desired[i].Type)
			continue
		}
		dPos[t] = i
	}

	stamp := metav1.NewTime(now.UTC().Truncate(time.Second))
	want := func(t int) metav1.Condition {
		c := desired[dPos[t]]
		if c.ObservedGeneration == 0 {
			c.ObservedGeneration = generation
		}
		c.LastTransitionTime = stamp
		if j := cPos[t]; j >= 0 && current[j].Status == c.Status && !current[j].LastTransitionTime.IsZero() {
			c.LastTransitionTime = current[j].LastTransitionTime
		}
		return c
	}

	// First pass: compare each of our conditions in current with the
	// wanted one of its type, without building anything. Conditions are
	// matched by type, so where ours stand (among themselves or among
	// another writer's, which are carried untouched) is never a change;
	// it only makes the answer a new slice in the written order.
	changed := false
	canonical := true // ours all come first, in the vocabulary's order
	seenForeign := false
	prev := -1 // the vocabulary index of the last of ours seen in current
	for i := range current {
		t := kind[i]
		if t < 0 {
			seenForeign = true
			continue
		}
		if seenForeign || t <= prev {
			canonical = false
		}
		prev = t
		// A repeat of one of our types is a change: the write holds
		// only the first.
		if cPos[t] != i || dPos[t] < 0 || !equal(current[i], want(t)) {
			changed = true
			break
		}
	}
	if !changed {
		for t := range v.types {
			if dPos[t] >= 0 && cPos[t] < 0 {
				changed = true // a wanted condition is missing from current
				break
			}
		}
	}
	if !changed && canonical {
		return MergeResult{Conditions: current, Ignored: ignored}
	}

	out := make([]metav1.Condition, 0, len(desired)+len(current)-ours)
	for t := range v.types {
		if dPos[t] >= 0 {
			out = append(out, want(t))
		}
	}
	for i := range current {
		if kind[i] < 0 {
			out = append(out, current[i])
		}
	}
	return MergeResult{Conditions: out, Changed: changed, Ignored: ignored}
}

// equal reports whether two conditions agree in every field a status
// write carries. Times are compared as instants.
func equal(a, b metav1.Condition) bool {
	return a.Type == b.Type &&
		a.Status == b.Status &&
		a.Reason == b.Reason &&
		a.Message == b.Message &&
		a.ObservedGeneration == b.ObservedGeneration &&
		a.LastTransitionTime.Equal(&b.LastTransitionTime)
}

// Equal reports whether two condition lists are equal element by
// element, in order, in every field a status write carries; times are
// compared as instants. For two single conditions, compare a[i:i+1]
// with b[j:j+1].
func Equal(a, b []metav1.Condition) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// Find returns the first condition of the given type, or nil.
func Find(conds []metav1.Condition, typ string) *metav1.Condition {
	for i := range conds {
		if conds[i].Type == typ {
			return &conds[i]
		}
	}
	return nil
}
