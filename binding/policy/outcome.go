package policy

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/internal/wholesec"
)

// Verdict is DecideOutcome's answer: the writer's Decision, and the
// write the engine's outcome and the writer's timing give together.
type Verdict struct {
	Decision
	// Write reports that the host writes the outcome's Owned conditions
	// now; otherwise Skip says why not.
	Write bool
	Skip  conditions.Skip
	// Retry and RetryAt say when a held write may be tried again.
	Retry   bool
	RetryAt time.Time
}

// RequeueAfter is how long the host waits before it reconciles again, as
// conditions.Outcome.RequeueAfter answers it: never 0 when Retry is set.
func (v Verdict) RequeueAfter(now time.Time) time.Duration {
	return (&conditions.Outcome{Retry: v.Retry, RetryAt: v.RetryAt}).RequeueAfter(now)
}

// DecideOutcome is the one answer to "write this Binding's status now?"
// for a broker that spaces its writes. It runs the writer policy (Decide,
// then Observe) on the outcome binding.Evaluate returned and folds the
// two verdicts into the Verdict it returns; o itself is not changed, so
// the host keeps the engine's own answer beside the writer's:
//
//   - what the engine refused stays refused, with its Skip (Stale,
//     Unchanged, ConfigMapRoute, NotLeader): the writer cannot write a
//     stale snapshot, or on the ConfigMap route, whatever its timing says;
//   - a write the engine wants and the writer holds (a gap, a backoff, a
//     fight) becomes Skip Held, with Retry and RetryAt the writer's time;
//   - a write both want is Write.
//
// object is status.conditions as the host sees the Binding now (its own
// successful writes shown there); the writer reads the Binding's own
// types of it and of o.Conditions only, as o.Owned holds them, so where
// another controller's conditions sit is never a change. m is the
// writer's memory of the UID (the zero Memory for one it never wrote).
//
// It returns m after Observe. After a write the host records it with
// Wrote(o.Owned, end), or Failed(end). A zero now is refused with
// conditions.ErrZeroNow, and limits that do not Validate (policy.Limits{}
// among them) with Validate's error naming each field.
func (l Limits) DecideOutcome(o *binding.Outcome, object []metav1.Condition, m Memory, now time.Time) (Verdict, Memory, error) {
	if err := conditions.CheckNow(now); err != nil {
		return Verdict{}, m, err
	}
	if err := l.Validate(); err != nil {
		// A forgotten Limits (the zero value) would mean no gap and no
		// backoff; the error names each field that is missing.
		return Verdict{}, m, err
	}
	leads := o.Skip != conditions.SkipNotLeader && o.Skip != conditions.SkipConfigMapRoute
	// Read at whole seconds here, so that Observe remembers a foreign
	// status as Decide compared it.
	ours := binding.Vocabulary.Owned(wholesec.Conditions(object))
	d := l.Decide(WriterInput{Object: ours, Computed: o.Owned, Memory: &m, Leader: leads, Now: now})
	m = l.Observe(m, d, ours, now)
	v := Verdict{Decision: d, Write: o.Write, Skip: o.Skip, Retry: o.Retry, RetryAt: o.RetryAt}
	if !o.Write {
		// The engine's refusal stands; a writer that would still write
		// (another writer's conditions moved, nothing of ours) does not.
		if d.Action != None {
			v.Action, v.At, v.Log = None, time.Time{}, LogUnchanged
		}
		return v, m, nil
	}
	switch d.Action {
	case Wait:
		v.Write, v.Skip, v.Retry, v.RetryAt = false, conditions.SkipHeld, true, d.At
	case None:
		v.Write, v.Skip = false, conditions.SkipUnchanged
		if d.Log == LogStandby {
			v.Skip = conditions.SkipNotLeader
		}
	}
	return v, m, nil
}
