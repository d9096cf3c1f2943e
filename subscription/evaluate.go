package subscription

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/types"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/internal/wholesec"
)

// node is one Subscription of the snapshot with what the whole-snapshot
// passes learned about it.
type node struct {
	sub          *finopsv1.Subscription
	parent       int32 // index of the parent node; -1 when none or absent
	parentFailed bool  // reading the parent fails
	refused      bool  // its status cannot be written back: no outcome
	rootState    rootState
	root         string
	in, out      int32 // subtree interval from numberTree
}

// evaluator holds the indexes of one Evaluate call.
type evaluator struct {
	now        time.Time
	nodes      []node
	byKey      map[finopsv1.Reference]int32
	offerings  map[finopsv1.Reference]*finopsv1.Offering
	badOffer   map[finopsv1.Reference]bool // listed twice: read treated as failed
	dupKeys    map[finopsv1.Reference]bool // Subscriptions listed twice
	objects    map[ObjectRef]struct{}
	failures   map[ObjectRef]struct{}
	uidCount   map[types.UID]int // built on first use: only stamping needs it
	providers  map[providerKey][]int32
	collection *Collection
	results    map[finopsv1.Reference]CollectionResult
	errors     []string
}

// Evaluate runs one reconcile of every Subscription in the snapshot and,
// when the snapshot holds a collection run, that run's status and
// finalizer decisions. It reads nothing but its argument, modifies
// nothing, and its result does not depend on the order of any list in the
// snapshot. Its cost grows as n log n in the number of Subscriptions. A
// snapshot whose Now is the zero time is refused with
// conditions.ErrZeroNow: activatedAt would be stamped with the year 1
// and never move again.
func Evaluate(snap Snapshot) (Result, error) {
	if err := conditions.CheckNow(snap.Now); err != nil {
		return Result{}, err
	}
	return evaluate(snap, nil), nil
}

// Explain is Evaluate with provenance: each Outcome also carries, in
// Provenance, the rule and the raw evidence behind each of its
// conditions (for logs and tools, never a status). It is the same
// evaluation with a recorder on; nothing is decided a second time.
func Explain(snap Snapshot) (Result, error) {
	if err := conditions.CheckNow(snap.Now); err != nil {
		return Result{}, err
	}
	return evaluate(snap, &conditions.Recorder{}), nil
}

// evaluate decides every Subscription; with rec, each outcome carries
// what rec recorded while it was decided.
func evaluate(snap Snapshot, rec *conditions.Recorder) Result {
	snap.Subscriptions = wholeSeconds(snap.Subscriptions)
	e := newEvaluator(snap)
	e.resolveRoots()
	e.numberTree()
	e.indexProviders()
	out := make([]Outcome, 0, len(e.nodes))
	for i := range e.nodes {
		if e.nodes[i].refused {
			continue
		}
		o := e.evaluate(int32(i), rec)
		if rec.On() {
			o.Provenance = Vocabulary.Attach(o.Status.Conditions, o.Skip == conditions.SkipStale, subRef(e.nodes[i].sub), rec.Provenance())
		}
		out = append(out, o)
	}
	slices.Sort(e.errors)
	return Result{Subscriptions: out, Errors: slices.Compact(e.errors)}
}

func keyCompare(a, b finopsv1.Reference) int {
	return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
}

func newEvaluator(snap Snapshot) *evaluator {
	e := &evaluator{
		now:        snap.Now.UTC().Truncate(time.Second),
		byKey:      make(map[finopsv1.Reference]int32, len(snap.Subscriptions)),
		offerings:  make(map[finopsv1.Reference]*finopsv1.Offering, len(snap.Offerings)),
		badOffer:   map[finopsv1.Reference]bool{},
		objects:    make(map[ObjectRef]struct{}, len(snap.Objects)),
		failures:   make(map[ObjectRef]struct{}, len(snap.Failures)),
		collection: snap.Collection,
	}

	// Subscriptions in key order; a key listed twice is the snapshot's
	// error and none of its copies is evaluated. The keys are sorted in a
	// compact slice of their own: comparing through the large objects
	// would miss the cache on every comparison.
	type keyed struct {
		key finopsv1.Reference
		idx int32
	}
	order := make([]keyed, len(snap.Subscriptions))
	for i := range snap.Subscriptions {
		order[i] = keyed{snap.Subscriptions[i].Key(), int32(i)}
	}
	byKeyOrder := func(a, b keyed) int { return keyCompare(a.key, b.key) }
	// The API server lists objects in key order, so the sort is usually
	// a linear check.
	if !slices.IsSortedFunc(order, byKeyOrder) {
		slices.SortFunc(order, byKeyOrder)
	}
	e.nodes = make([]node, 0, len(order))
	for k := 0; k < len(order); {
		key := order[k].key
		j := k + 1
		for j < len(order) && order[j].key == key {
			j++
		}
		if j-k > 1 {
			if e.dupKeys == nil {
				e.dupKeys = map[finopsv1.Reference]bool{}
			}
			e.dupKeys[key] = true
			e.errors = append(e.errors, fmt.Sprintf("Subscription %s is listed %d times; none of the copies is evaluated", key, j-k))
		} else {
			s := &snap.Subscriptions[order[k].idx]
			e.byKey[key] = int32(len(e.nodes))
			n := node{sub: s, parent: -1}
			if f := zeroTimeField(&s.Status); f != "" {
				// Kept in the family graph as the snapshot holds it, so
				// its relatives read it as present; only its own outcome
				// is left out.
				n.refused = true
				e.errors = append(e.errors, fmt.Sprintf("Subscription %s has %s 0001-01-01T00:00:00Z, the zero time, "+
					"which a status write turns into null; it is left out until the field holds a real instant", key, f))
			}
			e.nodes = append(e.nodes, n)
		}
		k = j
	}

	for i := range snap.Offerings {
		o := &snap.Offerings[i]
		k := finopsv1.Reference{Namespace: o.Namespace, Name: o.Name}
		if _, dup := e.offerings[k]; dup {
			if !e.badOffer[k] {
				e.errors = append(e.errors, fmt.Sprintf("Offering %s is listed more than once; reads of it are treated as failed", k))
			}
			e.badOffer[k] = true
			continue
		}
		e.offerings[k] = o
	}
	for _, o := range snap.Objects {
		e.objects[o] = struct{}{}
	}
	for _, f := range snap.Failures {
		e.failures[f] = struct{}{}
	}

	for i := range e.nodes {
		n := &e.nodes[i]
		if p := n.sub.Spec.Parent; p != nil {
			n.parentFailed = e.fails(finopsv1.APIVersion, finopsv1.KindSubscription, p.SubscriptionRef.Namespace, p.SubscriptionRef.Name)
			if j, ok := e.byKey[p.SubscriptionRef]; ok {
				n.parent = j
			}
		}
	}

	if c := snap.Collection; c != nil {
		if why := unwritableRun(c.ScheduledHour); why != "" {
			e.errors = append(e.errors, why)
			e.collection = nil
		}
	}
	if c := e.collection; c != nil {
		e.results = make(map[finopsv1.Reference]CollectionResult, len(c.Results))
		seen := make(map[finopsv1.Reference]int, len(c.Results))
		for _, r := range c.Results {
			seen[r.Subscription]++
			if seen[r.Subscription] == 2 {
				e.errors = append(e.errors, fmt.Sprintf("collection result for %s is listed more than once; treated as an error result", r.Subscription))
			}
			if seen[r.Subscription] > 1 {
				r = CollectionResult{Subscription: r.Subscription, Source: SourceError}
			}
			e.results[r.Subscription] = r
		}
	}
	return e
}

// wholeSeconds is subs with every instant a Subscription carries
// (creationTimestamp, deletionTimestamp, each lastTransitionTime,
// status.activatedAt and status.deactivatedAt, and the bounds of each
// cost bucket) read at whole seconds, as the API server stores them:
// subs itself when none has a fraction, else a copy. Every rule reads the
// Subscriptions through it, so a deactivation at 00:00:00.5 on a boundary
// lies on that boundary and charges no tick of the period after.
func wholeSeconds(subs []finopsv1.Subscription) []finopsv1.Subscription {
	return wholesec.Objects(subs, func(s *finopsv1.Subscription) bool {
		st := &s.Status
		return wholesec.MetaWhole(&s.ObjectMeta) && wholesec.ConditionsWhole(st.Conditions) &&
			wholesec.PtrWhole(st.ActivatedAt) && wholesec.PtrWhole(st.DeactivatedAt) && bucketsWhole(st.Costs)
	}, func(s *finopsv1.Subscription) {
		st := &s.Status
		wholesec.FixMeta(&s.ObjectMeta)
		st.Conditions = wholesec.Conditions(st.Conditions)
		st.ActivatedAt, st.DeactivatedAt = wholesec.Ptr(st.ActivatedAt), wholesec.Ptr(st.DeactivatedAt)
		if !bucketsWhole(st.Costs) {
			st.Costs = slices.Clone(st.Costs)
			for i := range st.Costs {
				b := &st.Costs[i]
				b.Start, b.EndExclusive = wholesec.Time(b.Start), wholesec.Time(b.EndExclusive)
			}
		}
	})
}

func bucketsWhole(bs []finopsv1.CostBucket) bool {
	for i := range bs {
		if !wholesec.Whole(bs[i].Start) || !wholesec.Whole(bs[i].EndExclusive) {
			return false
		}
	}
	return true
}

// zeroTimeField names the status time that holds the zero instant, or "".
// Written back it would print as null, so an active Subscription would
// lose the activatedAt every charge keys off.
func zeroTimeField(st *finopsv1.SubscriptionStatus) string {
	switch {
	case st.ActivatedAt != nil && st.ActivatedAt.IsZero():
		return "status.activatedAt"
	case st.DeactivatedAt != nil && st.DeactivatedAt.IsZero():
		return "status.deactivatedAt"
	}
	return ""
}

// fails reports whether reading the named object fails. A failure entry
// without an API version matches every version.
func (e *evaluator) fails(apiVersion, kind, namespace, name string) bool {
	if len(e.failures) == 0 {
		return false
	}
	if _, ok := e.failures[ObjectRef{Kind: kind, Namespace: namespace, Name: name}]; ok {
		return true
	}
	_, ok := e.failures[ObjectRef{APIVersion: apiVersion, Kind: kind, Namespace: namespace, Name: name}]
	return ok
}

// uidShared reports whether more than one Subscription carries uid. The
// count is built the first time a root is stamped, so a settled snapshot,
// which stamps nothing, never pays for it.
func (e *evaluator) uidShared(uid types.UID) bool {
	if e.uidCount == nil {
		e.uidCount = make(map[types.UID]int, len(e.nodes))
		for i := range e.nodes {
			e.uidCount[e.nodes[i].sub.UID]++
		}
	}
	return e.uidCount[uid] > 1
}

// exists reports whether the named object is in the snapshot.
// Subscriptions and Offerings are found in their own indexes (a key
// listed twice still exists).
func (e *evaluator) exists(r ObjectRef) bool {
	key := finopsv1.Reference{Namespace: r.Namespace, Name: r.Name}
	switch {
	case r.APIVersion == finopsv1.APIVersion && r.Kind == finopsv1.KindSubscription:
		if _, ok := e.byKey[key]; ok || e.dupKeys[key] {
			return true
		}
	case r.APIVersion == finopsv1.APIVersion && r.Kind == finopsv1.KindOffering:
		if _, ok := e.offerings[key]; ok {
			return true
		}
	}
	_, ok := e.objects[r]
	return ok
}

// offering returns the Offering a reference names, or nil, and whether
// reading it fails.
func (e *evaluator) offering(r finopsv1.Reference) (*finopsv1.Offering, bool) {
	if e.badOffer[r] || e.fails(finopsv1.APIVersion, finopsv1.KindOffering, r.Namespace, r.Name) {
		return nil, true
	}
	return e.offerings[r], false
}
