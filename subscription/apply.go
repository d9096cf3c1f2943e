package subscription

import (
	"errors"
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/types"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// Apply returns the Subscriptions as they stand after a host carried out
// res: each written status in place, the finalizer dropped where an
// outcome says so, and a Subscription whose last finalizer went while it
// was being deleted gone. Outcomes are matched by namespace, name and
// UID; subs itself is not modified.
func Apply(subs []finopsv1.Subscription, res Result) []finopsv1.Subscription {
	type id struct {
		ns, name string
		uid      types.UID
	}
	outs := make(map[id]*Outcome, len(res.Subscriptions))
	for i := range res.Subscriptions {
		o := &res.Subscriptions[i]
		outs[id{o.Namespace, o.Name, o.UID}] = o
	}
	next := make([]finopsv1.Subscription, 0, len(subs))
	for _, s := range subs {
		if o := outs[id{s.Namespace, s.Name, s.UID}]; o != nil {
			if o.Write {
				s.Status = o.Status
			}
			if o.Finalizer == conditions.FinalizerRemove {
				s.Finalizers = slices.DeleteFunc(slices.Clone(s.Finalizers),
					func(f string) bool { return f == finopsv1.SubscriptionFinalizer })
				if len(s.Finalizers) == 0 && s.IsDeleting() {
					continue // the API server deletes it now
				}
			}
		}
		next = append(next, s)
	}
	return next
}

// Changed reports whether carrying out r changes anything: a status
// write or a finalizer released.
func (r Result) Changed() bool {
	for _, o := range r.Subscriptions {
		if o.Write || o.Finalizer != conditions.FinalizerKeep {
			return true
		}
	}
	return false
}

// ErrNotSettled is returned by Settle (and finops.Settle) when the rounds
// run out while evaluations still change something.
var ErrNotSettled = errors.New("evaluation did not settle")

// Settle evaluates and applies until an evaluation changes nothing, at
// most maxRounds times, and returns the settled snapshot and the number
// of evaluations that changed something. When maxRounds is reached first
// it returns the last snapshot and an error wrapping ErrNotSettled; a
// snapshot Evaluate refuses returns that error. A collection run in snap
// happens in the first round only.
func Settle(snap Snapshot, maxRounds int) (Snapshot, int, error) {
	for round := 0; ; round++ {
		r, err := Evaluate(snap)
		if err != nil {
			return snap, round, err
		}
		if !r.Changed() {
			return snap, round, nil
		}
		if round == maxRounds {
			return snap, round, fmt.Errorf("%w after %d rounds", ErrNotSettled, maxRounds)
		}
		snap.Subscriptions = Apply(snap.Subscriptions, r)
		snap.Collection = nil
	}
}
