package policy

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/conditions"
)

// DecideOutcome is the one answer to "write this Binding's status now?"
// for a broker that spaces its writes. It runs the writer policy (Decide,
// then Observe) on the outcome binding.Evaluate returned and folds the
// verdict into it, so o.Write alone says whether to write:
//
//   - what the engine refused stays refused, with its Skip (Stale,
//     Unchanged, ConfigMapRoute, NotLeader): the writer cannot write a
//     stale snapshot, or on the ConfigMap route, whatever its timing says;
//   - a write the engine wants and the writer holds (a gap, a backoff, a
//     fight) becomes Skip Held, with Retry and RetryAt the writer's time;
//   - a write both want stays Write.
//
// object is status.conditions as the host sees the Binding now (its own
// successful writes shown there); the writer reads the Binding's own
// types of it and of o.Conditions only, as o.Owned holds them, so where
// another controller's conditions sit is never a change. m is the
// writer's memory of the UID (the zero Memory for one it never wrote).
//
// It returns the Decision, for the log and its fight flags, and m after
// Observe. After a write the host records it with Wrote(o.Owned, end), or
// Failed(end). A zero now is refused with conditions.ErrZeroNow, and
// limits that do not Validate (policy.Limits{} among them) with
// Validate's error naming each field; either leaves o as it was.
func (l Limits) DecideOutcome(o *binding.Outcome, object []metav1.Condition, m Memory, now time.Time) (Decision, Memory, error) {
	if err := conditions.CheckNow(now); err != nil {
		return Decision{}, m, err
	}
	if err := l.Validate(); err != nil {
		// A forgotten Limits (the zero value) would mean no gap and no
		// backoff; the error names each field that is missing.
		return Decision{}, m, err
	}
	leads := o.Skip != conditions.SkipNotLeader && o.Skip != conditions.SkipConfigMapRoute
	ours := binding.Vocabulary.Owned(object)
	d := l.Decide(WriterInput{Object: ours, Computed: o.Owned, Memory: &m, Leader: leads, Now: now})
	m = l.Observe(m, d, ours, now)
	if !o.Write {
		// The engine's refusal stands; a writer that would still write
		// (another writer's conditions moved, nothing of ours) does not.
		if d.Action != None {
			d.Action, d.At, d.Log = None, time.Time{}, LogUnchanged
		}
		return d, m, nil
	}
	switch d.Action {
	case Wait:
		o.Write, o.Skip, o.Retry, o.RetryAt = false, conditions.SkipHeld, true, d.At
	case None:
		o.Write, o.Skip = false, conditions.SkipUnchanged
		if d.Log == LogStandby {
			o.Skip = conditions.SkipNotLeader
		}
	}
	return d, m, nil
}
