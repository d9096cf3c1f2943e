package offering

import (
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/internal/wholesec"
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

// Explain is Evaluate with provenance: each Outcome also carries, in
// Provenance, the rule and the raw evidence behind each of its
// conditions (for logs and tools, never a status). It is the same
// evaluation with a recorder on; nothing is decided a second time.
func Explain(s Snapshot) (Result, error) {
	if err := conditions.CheckNow(s.Now); err != nil {
		return Result{}, err
	}
	return evaluate(s, true), nil
}

func evaluate(s Snapshot, explain bool) Result {
	s.Offerings = wholeSeconds(s.Offerings)
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
		var rec *conditions.Recorder
		if explain {
			rec = &conditions.Recorder{}
		}
		if offs[i].IsDeleting() {
			res.Offerings[i] = e.deletion(int32(i), rec)
		} else {
			res.Offerings[i] = e.readiness(int32(i), rec)
		}
		o := &res.Offerings[i]
		o.Owned = Vocabulary.Owned(o.Conditions)
		if o.Retry {
			o.RetryAt = s.Now.Add(conditions.RetryDelay)
		}
		if rec.On() {
			decided := rec.Provenance()
			o.Provenance = Vocabulary.Attach(o.Status.Conditions, o.Skip == conditions.SkipStale, ref(&offs[i]), decided)
		}
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
	deps  *dependents                    // built on the first deleting Offering
	names map[string]map[string]struct{} // see seen; built on first use
}

// wholeSeconds is offs with every instant an Offering carries
// (creationTimestamp, deletionTimestamp, each lastTransitionTime and
// status.resolvedPricing.resolvedAt) read at whole seconds, as the API
// server stores them: offs itself when none has a fraction, else a copy.
// Every rule reads the Offerings through it.
func wholeSeconds(offs []finopsv1.Offering) []finopsv1.Offering {
	return wholesec.Objects(offs, func(o *finopsv1.Offering) bool {
		return wholesec.MetaWhole(&o.ObjectMeta) && wholesec.ConditionsWhole(o.Status.Conditions) &&
			(o.Status.ResolvedPricing == nil || wholesec.Whole(o.Status.ResolvedPricing.ResolvedAt))
	}, func(o *finopsv1.Offering) {
		wholesec.FixMeta(&o.ObjectMeta)
		o.Status.Conditions = wholesec.Conditions(o.Status.Conditions)
		if p := o.Status.ResolvedPricing; p != nil && !wholesec.Whole(p.ResolvedAt) {
			c := *p
			c.ResolvedAt = wholesec.Time(p.ResolvedAt)
			o.Status.ResolvedPricing = &c
		}
	})
}

func ref(o *finopsv1.Offering) conditions.ObjectRef {
	return conditions.ObjectRef{Kind: finopsv1.KindOffering, Namespace: o.Namespace, Name: o.Name, UID: o.UID, Generation: o.Generation}
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

// keep returns copies of the current conditions of the given types, so a
// merge leaves them as they are.
func keep(conds []metav1.Condition, types ...string) []metav1.Condition {
	var out []metav1.Condition
	for _, t := range types {
		if c := conditions.Find(conds, t); c != nil {
			out = append(out, *c)
		}
	}
	return out
}
