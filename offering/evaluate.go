package offering

import (
	"fmt"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/pricebook"
)

// Snapshot is the world one Offering reconcile reads.
type Snapshot struct {
	// Now stamps transitions and resolvedPricing.resolvedAt.
	Now time.Time
	// Offerings are evaluated, and read as each other's requirements.
	Offerings []finopsv1.Offering
	// PriceBooks supply the active book (status.active as stored).
	PriceBooks []finopsv1.PriceBook
	// Dependents are the Subscriptions, seen only as far as the deletion
	// guard needs them.
	Dependents []Dependent
	// Failures are reads that fail.
	Failures []Failure
}

// Dependent is a Subscription as the deletion guard sees it. The
// subscription package builds these, which keeps this package free of
// it (it imports this one).
type Dependent struct {
	Namespace   string
	Name        string
	OfferingRef finopsv1.Reference
	// Ready is status.ready == "True"; only ready dependents hold a
	// deleting Offering.
	Ready bool
}

// Outcome is what one reconcile decides for one Offering: the shared
// conditions.Outcome (identity, Conditions, Owned, Write and Skip,
// Finalizer, Retry) and the Offering's whole Status.
//
// Finalizer is FinalizerAdd on a live Offering without Finalizer, and
// FinalizerRemove when the deletion guard lets it go, in the same write
// as Deleting=True. Retry is set, at conditions.RetryDelay after the
// snapshot's Now, while a check fails or a deletion is held: the host
// retries under its own backoff; a settled Offering waits for a watch
// event.
type Outcome struct {
	conditions.Outcome
	// Status is the Offering's status after the reconcile.
	Status finopsv1.OfferingStatus
	// Provenance holds, with Explain, one entry per condition of
	// Status.Conditions, in the same order: the rule that decided it and
	// the raw evidence (for logs and tools, never a status). Evaluate
	// leaves it nil.
	Provenance []conditions.Provenance `json:",omitempty"`
}

// Result holds one Outcome per Offering of the snapshot, sorted by
// namespace, name and UID.
type Result struct {
	Offerings []Outcome
}

// Evaluate reconciles every Offering of the snapshot once, against the
// snapshot as given. The loop walk, the requirement checks and the
// deletion guard are each computed for the whole snapshot in time linear
// in Offerings plus requirement entries plus Subscriptions. A snapshot
// whose Now is the zero time is refused with conditions.ErrZeroNow.
func Evaluate(s Snapshot) (Result, error) {
	if err := conditions.CheckNow(s.Now); err != nil {
		return Result{}, err
	}
	return evaluate(s, false), nil
}

func evaluate(s Snapshot, explain bool) Result {
	offs := s.Offerings
	e := evaluator{s: s, idx: index(offs), fails: newFailures(s.Failures), book: -1}
	g := buildGraph(offs, e.idx)
	e.reach = g.loopReach()
	if slices.Contains(e.reach, true) {
		e.loops = g.loops(e.reach)
	}
	e.book = pricebook.ActiveBook(s.PriceBooks)
	res := Result{Offerings: make([]Outcome, len(offs))}
	for i := range offs {
		if offs[i].IsDeleting() {
			res.Offerings[i] = e.deletion(int32(i))
		} else {
			res.Offerings[i] = e.readiness(int32(i))
		}
		o := &res.Offerings[i]
		o.Owned = Vocabulary.Owned(o.Conditions)
		if o.Retry {
			o.RetryAt = s.Now.Add(conditions.RetryDelay)
		}
	}
	if explain {
		e.explain(&res)
	}
	slices.SortStableFunc(res.Offerings, func(a, b Outcome) int { return conditions.Compare(&a.Outcome, &b.Outcome) })
	return res
}

type evaluator struct {
	s     Snapshot
	idx   map[finopsv1.Reference]int32
	fails failures
	reach []bool
	loops loops
	book  int
	deps  *dependents // built on the first deleting Offering
}

// verdict is the first failing check, or the published pricing.
type verdict struct {
	reason, message string
	pricing         *finopsv1.ResolvedPricing
}

func (e *evaluator) check(i int32) verdict {
	o := &e.s.Offerings[i]
	if e.reach[i] {
		return verdict{reason: ReasonCircularDependencyDetected, message: e.loops.loopMessage(e.s.Offerings, i)}
	}
	for k, r := range requirements(o) {
		switch {
		case r.Name == "":
			return verdict{reason: ReasonRequiredOfferingNotFound,
				message: fmt.Sprintf("requiredOfferings[%d] has no name", k)}
		case r.Namespace == "":
			return verdict{reason: ReasonRequiredOfferingNotFound,
				message: fmt.Sprintf("required offering %q has no namespace (a reference is never defaulted)", r.Name)}
		case e.fails.get(finopsv1.KindOffering, r.Namespace, r.Name):
			return verdict{reason: ReasonValidationError, message: "cannot read required offering " + r.String()}
		}
		j, ok := e.idx[r]
		switch {
		case !ok:
			return verdict{reason: ReasonRequiredOfferingNotFound, message: "required offering " + r.String() + " not found"}
		case !e.s.Offerings[j].IsReady():
			return verdict{reason: ReasonRequiredOfferingNotReady, message: "required offering " + r.String() + " is not ready"}
		}
	}
	return e.price(o)
}

// price publishes the pricing, or keeps what was published before:
// resolved pricing never changes once set, whatever the books do.
func (e *evaluator) price(o *finopsv1.Offering) verdict {
	if o.Status.ResolvedPricing != nil {
		return verdict{pricing: o.Status.ResolvedPricing}
	}
	p := &finopsv1.ResolvedPricing{
		ResolvedAt:      metav1.NewTime(e.s.Now.UTC().Truncate(time.Second)),
		Meters:          []finopsv1.ResolvedMeter{},
		SubscriptionFee: copyFee(o.Spec.Pricing.SubscriptionFee),
	}
	if len(o.Spec.Pricing.ResourcePricing) == 0 {
		return verdict{pricing: p}
	}
	if e.fails.list(finopsv1.KindPriceBook) ||
		e.book >= 0 && e.fails.get(finopsv1.KindPriceBook, e.s.PriceBooks[e.book].Namespace, e.s.PriceBooks[e.book].Name) {
		return verdict{reason: ReasonValidationError, message: "cannot read the active pricebook"}
	}
	if e.book < 0 || e.s.PriceBooks[e.book].Spec.ValuationMode != finopsv1.ValuationCurrency {
		return verdict{reason: ReasonNoActivePricebook,
			message: fmt.Sprintf("offering %s/%s: no active pricebook to resolve metered pricing", o.Namespace, o.Name)}
	}
	meters, err := resolveMeters(o.Spec.Pricing.ResourcePricing, &e.s.PriceBooks[e.book])
	if err != nil {
		return verdict{reason: ReasonPricebookParseFailed, message: err.Error()}
	}
	p.Meters = meters
	return verdict{pricing: p}
}

func copyFee(f *finopsv1.SubscriptionFee) *finopsv1.SubscriptionFee {
	if f == nil {
		return nil
	}
	c := *f
	if f.MinPeriods != nil {
		m := *f.MinPeriods
		c.MinPeriods = &m
	}
	return &c
}

func (e *evaluator) readiness(i int32) Outcome {
	o := &e.s.Offerings[i]
	v := e.check(i)
	ready := metav1.Condition{Type: TypeReady, Status: metav1.ConditionTrue,
		Reason: ReasonValidationSucceeded, ObservedGeneration: o.Generation}
	pr := metav1.Condition{Type: TypePricingResolved, Status: metav1.ConditionTrue,
		Reason: ReasonPricingResolved, ObservedGeneration: o.Generation}
	if v.reason != "" {
		msg := conditions.FitMessage(v.message)
		ready.Status, ready.Reason, ready.Message = metav1.ConditionFalse, v.reason, msg
		pr.Status, pr.Reason, pr.Message = metav1.ConditionFalse, v.reason, msg
	}
	out, m := e.write(o, []metav1.Condition{ready, pr})
	if m.Stale {
		return out
	}
	out.Status.Ready = ready.Status
	out.Status.ResolvedPricing = o.Status.ResolvedPricing
	if o.Status.ResolvedPricing == nil && v.pricing != nil {
		out.Status.ResolvedPricing = v.pricing
	}
	out.Decide(m, out.Status.Ready != o.Status.Ready || out.Status.ResolvedPricing != o.Status.ResolvedPricing)
	if !slices.Contains(o.Finalizers, finopsv1.OfferingFinalizer) {
		out.Finalizer = conditions.FinalizerAdd
	}
	out.Retry = v.reason != ""
	return out
}

// write merges desired into the Offering's conditions; the rest of the
// status is carried over for the caller to adjust. A stale merge leaves
// the status as it is and is decided at once.
func (e *evaluator) write(o *finopsv1.Offering, desired []metav1.Condition) (Outcome, conditions.MergeResult) {
	m := Vocabulary.MergeObject(o, o.Status.Conditions, desired, e.s.Now)
	out := Outcome{Outcome: conditions.Outcome{Kind: finopsv1.KindOffering, Namespace: o.Namespace, Name: o.Name, UID: o.UID,
		Generation: o.Generation, Conditions: m.Conditions}, Status: o.Status}
	out.Status.Conditions = m.Conditions
	out.Decide(m, false)
	return out, m
}

// keep returns the current conditions of the given types, so a merge
// leaves them exactly as they are.
func keep(conds []metav1.Condition, types ...string) []metav1.Condition {
	var out []metav1.Condition
	for _, t := range types {
		if c := conditions.Find(conds, t); c != nil {
			out = append(out, *c)
		}
	}
	return out
}
