package finops

import (
	"fmt"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/costjob"
	"github.com/condengine/condengine/offering"
	"github.com/condengine/condengine/pricebook"
	"github.com/condengine/condengine/provider"
	"github.com/condengine/condengine/subscription"
)

// Result is one reconcile of every object of a snapshot. Every list of
// outcomes is sorted by namespace, name and UID, and every outcome has
// the shared shape of conditions.Outcome.
type Result struct {
	// PriceBooks holds the books' outcomes, the election and the pushed
	// document.
	PriceBooks pricebook.Result
	// Offerings holds the Offerings' outcomes.
	Offerings offering.Result
	// Subscriptions holds the Subscriptions' outcomes, and problems of
	// the snapshot as a whole.
	Subscriptions subscription.Result
	// CostJobs holds each CostJob's schedule. CostJobs get no status from
	// a reconcile.
	CostJobs []costjob.Outcome
	// Providers holds each FinOpsProvider's plan for OpenCost. No status
	// is ever written.
	Providers []provider.Outcome
}

// Evaluate reconciles every object once against the snapshot as given:
// each kind reads the others' status as the snapshot holds it, not as
// this evaluation decides it, so a change travels one level per
// evaluation, as it does between the operator's reconcilers. Settle
// repeats it to the fixed point. A snapshot whose Now is the zero time is
// refused with conditions.ErrZeroNow.
func Evaluate(s Snapshot) (Result, error) { return evaluate(s, false) }

// Explain is Evaluate with provenance: every PriceBook, Offering and
// Subscription outcome also carries, in its Provenance field, the rule
// and the raw evidence behind each of its conditions. Each kind is
// evaluated once, with its recorder on. The evidence may name other
// namespaces' objects: it is for logs and tools, never a status.
func Explain(s Snapshot) (Result, error) { return evaluate(s, true) }

func evaluate(s Snapshot, explain bool) (Result, error) {
	if err := conditions.CheckNow(s.Now); err != nil {
		return Result{}, err
	}
	evalBooks, evalOfferings, evalSubs := pricebook.Evaluate, offering.Evaluate, subscription.Evaluate
	if explain {
		evalBooks, evalOfferings, evalSubs = pricebook.Explain, offering.Explain, subscription.Explain
	}
	books, err := evalBooks(s.PriceBooks, s.PricingDocument, s.Now)
	if err != nil {
		return Result{}, err
	}
	offs, err := evalOfferings(s.offeringSnapshot())
	if err != nil {
		return Result{}, err
	}
	subs, err := evalSubs(s.subscriptionSnapshot())
	if err != nil {
		return Result{}, err
	}
	r := Result{
		PriceBooks:    books,
		Offerings:     offs,
		Subscriptions: subs,
		CostJobs:      make([]costjob.Outcome, len(s.CostJobs)),
		Providers:     make([]provider.Outcome, len(s.Providers)),
	}
	for i := range s.CostJobs {
		r.CostJobs[i] = costjob.OutcomeOf(&s.CostJobs[i])
	}
	for i := range s.Providers {
		r.Providers[i] = provider.OutcomeOf(&s.Providers[i])
	}
	slices.SortStableFunc(r.CostJobs, func(a, b costjob.Outcome) int { return conditions.Compare(&a.Outcome, &b.Outcome) })
	slices.SortStableFunc(r.Providers, func(a, b provider.Outcome) int { return conditions.Compare(&a.Outcome, &b.Outcome) })
	return r, nil
}

// Changed reports whether the result writes anything: a status, a
// finalizer, or the OpenCost document.
func (r Result) Changed() bool {
	if r.PriceBooks.DocumentChanged {
		return true
	}
	for _, o := range r.PriceBooks.Books {
		if o.Write {
			return true
		}
	}
	for _, o := range r.Offerings.Offerings {
		if o.Write || o.Finalizer != conditions.FinalizerKeep {
			return true
		}
	}
	return r.Subscriptions.Changed()
}

// id is what outcomes are matched to objects by.
type id struct {
	namespace, name string
	uid             types.UID
}

// byID indexes a kind's outcomes by the identity of their objects; common
// reaches the shared outcome inside the kind's own.
func byID[O any](outs []O, common func(*O) *conditions.Outcome) map[id]*O {
	m := make(map[id]*O, len(outs))
	for i := range outs {
		c := common(&outs[i])
		m[id{c.Namespace, c.Name, c.UID}] = &outs[i]
	}
	return m
}

// Apply returns the snapshot as it stands after the host carried out r:
// new statuses written, finalizers added or dropped, objects whose last
// finalizer went while deleting removed, and the pushed document in
// place. s itself is not modified; unchanged objects are shared. The
// collection run, having happened, is not repeated. Outcomes are matched
// to objects by namespace, name and UID.
func Apply(s Snapshot, r Result) Snapshot {
	next := s
	next.Collection = nil
	books := byID(r.PriceBooks.Books, func(o *pricebook.Outcome) *conditions.Outcome { return &o.Outcome })
	next.PriceBooks = slices.Clone(s.PriceBooks)
	for i := range next.PriceBooks {
		b := &next.PriceBooks[i]
		if o := books[id{b.Namespace, b.Name, b.UID}]; o != nil && o.Write {
			b.Status = o.Status
		}
	}
	if r.PriceBooks.Document != nil {
		next.PricingDocument = r.PriceBooks.Document
	}
	offs := byID(r.Offerings.Offerings, func(o *offering.Outcome) *conditions.Outcome { return &o.Outcome })
	next.Offerings = applied(s.Offerings, offs, func(o *finopsv1.Offering, out *offering.Outcome) bool {
		if out.Write {
			o.Status = out.Status
		}
		switch out.Finalizer {
		case conditions.FinalizerAdd:
			o.Finalizers = append(slices.Clone(o.Finalizers), finopsv1.OfferingFinalizer)
		case conditions.FinalizerRemove:
			o.Finalizers = without(o.Finalizers, finopsv1.OfferingFinalizer)
			return len(o.Finalizers) > 0 // the API server deletes it now
		}
		return true
	})
	next.Subscriptions = subscription.Apply(s.Subscriptions, r.Subscriptions)
	return next
}

// applied returns a new list of the objects of list, each copy with its
// outcome (if any) carried out by apply; apply reports false for an
// object that no longer exists afterwards, which is left out.
func applied[T any, P interface {
	*T
	metav1.Object
}, O any](list []T, outs map[id]*O, apply func(P, *O) bool) []T {
	next := make([]T, 0, len(list))
	for _, x := range list {
		p := P(&x)
		if out := outs[id{p.GetNamespace(), p.GetName(), p.GetUID()}]; out != nil && !apply(p, out) {
			continue
		}
		next = append(next, x)
	}
	return next
}

func without(list []string, s string) []string {
	return slices.DeleteFunc(slices.Clone(list), func(x string) bool { return x == s })
}

// ErrNotSettled is returned by Settle when the rounds run out while
// evaluations still write. It is subscription.ErrNotSettled, so one
// errors.Is test serves both Settles.
var ErrNotSettled = subscription.ErrNotSettled

// Settle evaluates and applies until an evaluation writes nothing, at
// most maxRounds times. It returns the settled snapshot and the number of
// evaluations that wrote something. When maxRounds is reached first it
// returns the last snapshot and an error wrapping ErrNotSettled; a
// snapshot Evaluate refuses returns that error. Each
// round moves a cascade by one level, so a chain of n requirements needs
// about n rounds. A collection run in s happens in the first round only.
func Settle(s Snapshot, maxRounds int) (Snapshot, int, error) {
	for round := 0; round < maxRounds; round++ {
		r, err := Evaluate(s)
		if err != nil {
			return s, round, err
		}
		if !r.Changed() {
			return s, round, nil
		}
		s = Apply(s, r)
	}
	r, err := Evaluate(s)
	if err != nil {
		return s, maxRounds, err
	}
	if !r.Changed() {
		return s, maxRounds, nil
	}
	return s, maxRounds, fmt.Errorf("%w after %d rounds", ErrNotSettled, maxRounds)
}
