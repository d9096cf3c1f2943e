package offering

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// dependents groups, once per snapshot, the ready objects that hold each
// Offering: Subscriptions by offeringRef and Offerings by requirement.
type dependents struct {
	subs map[finopsv1.Reference][]finopsv1.Reference
	offs map[finopsv1.Reference][]finopsv1.Reference
}

func (e *evaluator) dependents() *dependents {
	if e.deps != nil {
		return e.deps
	}
	d := &dependents{subs: map[finopsv1.Reference][]finopsv1.Reference{}, offs: map[finopsv1.Reference][]finopsv1.Reference{}}
	for _, s := range e.s.Dependents {
		if s.Ready {
			d.subs[s.OfferingRef] = append(d.subs[s.OfferingRef], finopsv1.Reference{Namespace: s.Namespace, Name: s.Name})
		}
	}
	for i := range e.s.Offerings {
		o := &e.s.Offerings[i]
		if !o.IsReady() {
			continue
		}
		k := o.Key()
		for _, r := range requirements(o) {
			// An Offering listing itself cannot hold its own delete.
			if r != k {
				d.offs[r] = append(d.offs[r], k)
			}
		}
	}
	e.deps = d
	return d
}

// deletion runs the guard for an Offering with a deletion timestamp.
// Ready and PricingResolved stay exactly as they were: the delete branch
// decides only whether the finalizer may go.
func (e *evaluator) deletion(i int32) Outcome {
	o := &e.s.Offerings[i]
	del := metav1.Condition{Type: TypeDeleting, Status: metav1.ConditionFalse, ObservedGeneration: o.Generation}
	switch d := e.dependents(); {
	case e.fails.list("Subscription") || e.fails.list(finopsv1.KindOffering):
		del.Reason, del.Message = ReasonValidationError, "cannot list the dependents of this offering"
	case len(d.subs[o.Key()]) > 0:
		del.Reason = ReasonDependentSubscriptionsExist
		del.Message = conditions.FitMessage(dependentsMessage("still referenced by subscriptions", o.Namespace, d.subs[o.Key()]))
	case len(d.offs[o.Key()]) > 0:
		del.Reason = ReasonDependentOfferingsExist
		del.Message = conditions.FitMessage(dependentsMessage("still required by dependent resources", o.Namespace, d.offs[o.Key()]))
	default:
		del.Status, del.Reason = metav1.ConditionTrue, ReasonDeletionAllowed
	}
	desired := append(keep(Vocabulary.Held(o.Status.Conditions, o.CreationTimestamp.Time), TypeReady, TypePricingResolved), del)
	out, m := e.write(o, desired)
	if m.Stale {
		return out
	}
	allowed := del.Status == metav1.ConditionTrue
	if allowed && slices.Contains(o.Finalizers, finopsv1.OfferingFinalizer) {
		out.Finalizer = conditions.FinalizerRemove
	}
	out.Retry = !allowed
	return out
}

// maxNamed bounds how many dependents a message names.
const maxNamed = 5

// dependentsMessage names the dependents in the Offering's own namespace,
// sorted, and only counts those elsewhere: another namespace's object
// names are its own business.
func dependentsMessage(lead, ns string, refs []finopsv1.Reference) string {
	own := make([]finopsv1.Reference, 0, len(refs))
	for _, r := range refs {
		if r.Namespace == ns {
			own = append(own, r)
		}
	}
	slices.SortFunc(own, func(a, b finopsv1.Reference) int { return cmp.Compare(a.Name, b.Name) })
	own = slices.Compact(own)
	var b strings.Builder
	b.WriteString(lead)
	b.WriteString(": ")
	for k, r := range own {
		if k == maxNamed {
			fmt.Fprintf(&b, " and %d more", len(own)-maxNamed)
			break
		}
		if k > 0 {
			b.WriteString(", ")
		}
		b.WriteString(shown(r.String()))
	}
	if other := len(refs) - countIn(refs, ns); other > 0 {
		if len(own) > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%d in other namespaces", other)
	}
	return b.String()
}

func countIn(refs []finopsv1.Reference, ns string) int {
	n := 0
	for _, r := range refs {
		if r.Namespace == ns {
			n++
		}
	}
	return n
}
