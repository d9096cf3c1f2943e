package binding

import (
	"slices"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
)

// Apply returns the snapshot as it stands after the host carried out r:
// each Binding whose outcome has Write set holds the outcome's Status.
// Outcomes are matched to Bindings by namespace, name and UID, so a
// Binding the result does not answer for (another broker's, one left out
// as an ObjectError, a second object under a repeated UID) keeps its
// status. s itself is not modified: the Bindings slice is new, the other
// slices and the written statuses' condition lists are shared with s and
// r. Nothing else moves: the broker's memory is r.Memory, which a host
// carries over to the next snapshot itself, as it does probe results and
// the clock.
//
// Apply follows Write only. A replica that does not write (a standby,
// the ConfigMap route) changes nothing by Apply; to see the statuses a
// write would give, set Write on the outcomes that are Due first.
func Apply(s Snapshot, r Result) Snapshot {
	next := s
	next.Bindings = slices.Clone(s.Bindings)
	ApplyInPlace(next.Bindings, r)
	return next
}

// ApplyInPlace is Apply writing into bindings itself instead of a copy,
// for a host that holds a large snapshot once and has no use for it as
// it was. The copy Apply makes is live beside the snapshot and the
// result: on `condengine eval` of 100,000 Bindings it raised the peak
// resident set by 15% in two runs of six (1.01x in the other four).
func ApplyInPlace(bindings []akv1.Binding, r Result) {
	type id struct{ ns, name, uid string }
	written := make(map[id]*Outcome, len(r.Bindings))
	for i := range r.Bindings {
		if o := &r.Bindings[i]; o.Write {
			written[id{o.Namespace, o.Name, string(o.UID)}] = o
		}
	}
	if len(written) == 0 {
		return
	}
	for i := range bindings {
		b := &bindings[i]
		if o := written[id{b.Namespace, b.Name, string(b.UID)}]; o != nil {
			b.Status = o.Status
		}
	}
}
