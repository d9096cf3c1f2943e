package finops

import (
	"errors"
	"slices"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/offering"
	"github.com/condengine/condengine/subscription"
)

// Incremental evaluates a snapshot once and then keeps its result up to
// date as it is told of changes, re-evaluating only what a change can
// reach:
//
//   - a Subscription added, updated or deleted: the Subscriptions linked
//     to it before or after the change, and everything linked to those
//     in turn (its family). Two Subscriptions are linked when one names
//     the other as its parent or its target, or when they share a UID or
//     a compatibility root (a root stamp is compared with UIDs, as the
//     evaluator compares them). Nothing else about a Subscription's
//     outcome depends on another Subscription. When the change moves
//     what the Offerings read of it (its existence, its offeringRef, its
//     readiness), the Offerings are evaluated again as well: each
//     Offering's outcome counts the Subscriptions bound to it;
//   - anything else (an Offering, a PriceBook, a CostJob, a provider, an
//     object a target may name, a failing read, a collection run, the
//     time): everything, through Update.
//
// After any sequence of changes, Result equals Evaluate(Snapshot()). A
// change's cost is its family's, not the world's, apart from the
// Offerings' evaluation above. While the Subscriptions' evaluation
// reports a problem of the snapshot (Result.Subscriptions.Errors), every
// change is answered by a full evaluation: such problems are rare and
// may couple Subscriptions that are otherwise apart. An Incremental is
// not safe for concurrent use.
type Incremental struct {
	s    Snapshot // Subscriptions is nil: they are held in subs
	subs map[finopsv1.Reference]*finopsv1.Subscription

	// links index the Subscriptions by what couples them: the keys whose
	// parent or target is a key, and the keys that carry a UID or root.
	children map[finopsv1.Reference]keySet
	targeted map[finopsv1.Reference]keySet
	tokens   map[string]keySet

	// What a family's evaluation reads besides Subscriptions, by
	// namespace and name: the Offerings (bound or targeted) and the other
	// objects a targetRef may name. A step hands the evaluator only those
	// its family names, so that it costs the family, not the world.
	offerings map[finopsv1.Reference][]int
	objects   map[finopsv1.Reference][]subscription.ObjectRef
	failures  []subscription.ObjectRef
	res       Result // Subscriptions.Subscriptions is kept in outs
	outs      map[finopsv1.Reference]subscription.Outcome
	full      bool // the last evaluation reported a problem: every change is full
}

type keySet = map[finopsv1.Reference]struct{}

// Step is what one change re-evaluated.
type Step struct {
	// Subscriptions are the re-evaluated outcomes, sorted by namespace,
	// name and UID. A Subscription not listed keeps its earlier outcome.
	Subscriptions []subscription.Outcome
	// Gone lists the keys of Subscriptions that had an outcome before the
	// change and have none now.
	Gone []finopsv1.Reference
	// Offerings reports that the Offerings were evaluated again;
	// Result().Offerings holds their outcomes.
	Offerings bool
	// Full reports a full evaluation: every outcome was decided again.
	Full bool
}

// ErrDuplicateSubscription is returned by NewIncremental for a snapshot
// that lists a Subscription (a namespace and name) twice: changes are
// told by key, which must name one object.
var ErrDuplicateSubscription = errors.New("finops: a Subscription is listed twice")

// NewIncremental builds the evaluator from a snapshot and returns it with
// the snapshot's full result.
func NewIncremental(s Snapshot) (*Incremental, Result, error) {
	e := &Incremental{}
	subs := s.Subscriptions
	s.Subscriptions = nil
	e.s = s
	e.subs = make(map[finopsv1.Reference]*finopsv1.Subscription, len(subs))
	for i := range subs {
		x := subs[i]
		if _, dup := e.subs[x.Key()]; dup {
			return nil, Result{}, ErrDuplicateSubscription
		}
		e.subs[x.Key()] = &x
	}
	if err := e.evaluateAll(); err != nil {
		return nil, Result{}, err
	}
	return e, e.Result(), nil
}

// Snapshot returns the snapshot the evaluator now describes; its
// Subscriptions are sorted by namespace and name.
func (e *Incremental) Snapshot() Snapshot {
	s := e.s
	s.Subscriptions = make([]finopsv1.Subscription, 0, len(e.subs))
	for _, k := range sortedKeys(e.subs) {
		s.Subscriptions = append(s.Subscriptions, *e.subs[k])
	}
	return s
}

// Result assembles the whole current result, as Evaluate(Snapshot())
// returns it.
func (e *Incremental) Result() Result {
	r := e.res
	r.Subscriptions.Subscriptions = make([]subscription.Outcome, 0, len(e.outs))
	for _, o := range e.outs {
		r.Subscriptions.Subscriptions = append(r.Subscriptions.Subscriptions, o)
	}
	slices.SortFunc(r.Subscriptions.Subscriptions, func(a, b subscription.Outcome) int {
		return conditions.Compare(&a.Outcome, &b.Outcome)
	})
	return r
}

// SetSubscription tells the evaluator that x was created or updated.
func (e *Incremental) SetSubscription(x finopsv1.Subscription) (Step, error) {
	k := x.Key()
	old := e.subs[k]
	seeds := e.linked(old)
	e.unlink(old)
	e.subs[k] = &x
	e.link(&x)
	seeds[k] = struct{}{}
	return e.step(seeds, dependentMoved(old, &x))
}

// DeleteSubscription tells the evaluator that the Subscription of key is
// gone.
func (e *Incremental) DeleteSubscription(key finopsv1.Reference) (Step, error) {
	old := e.subs[key]
	if old == nil {
		return Step{}, nil
	}
	seeds := e.linked(old)
	e.unlink(old)
	delete(e.subs, key)
	return e.step(seeds, true)
}

// Update applies edit to the snapshot the evaluator describes and
// evaluates all of it again: the path for every change other than one
// Subscription's. edit may change any list, the Subscriptions too.
func (e *Incremental) Update(edit func(*Snapshot)) (Step, error) {
	s := e.Snapshot()
	edit(&s)
	subs := make(map[finopsv1.Reference]*finopsv1.Subscription, len(s.Subscriptions))
	for i := range s.Subscriptions {
		x := s.Subscriptions[i]
		if _, dup := subs[x.Key()]; dup {
			return Step{}, ErrDuplicateSubscription
		}
		subs[x.Key()] = &x
	}
	prev, prevSubs := e.s, e.subs
	s.Subscriptions = nil
	e.s, e.subs = s, subs
	st, err := e.fullStep()
	if err != nil {
		e.s, e.subs = prev, prevSubs
		_ = e.evaluateAll()
	}
	return st, err
}

// evaluateAll evaluates the whole snapshot and rebuilds every index.
func (e *Incremental) evaluateAll() error {
	r, err := Evaluate(e.Snapshot())
	if err != nil {
		return err
	}
	e.children = map[finopsv1.Reference]keySet{}
	e.targeted = map[finopsv1.Reference]keySet{}
	e.tokens = map[string]keySet{}
	for _, x := range e.subs {
		e.link(x)
	}
	ss := e.s.subscriptionSnapshot()
	e.failures = ss.Failures
	e.objects = map[finopsv1.Reference][]subscription.ObjectRef{}
	for _, o := range ss.Objects {
		k := finopsv1.Reference{Namespace: o.Namespace, Name: o.Name}
		e.objects[k] = append(e.objects[k], o)
	}
	e.offerings = map[finopsv1.Reference][]int{}
	for i := range e.s.Offerings {
		k := finopsv1.Reference{Namespace: e.s.Offerings[i].Namespace, Name: e.s.Offerings[i].Name}
		e.offerings[k] = append(e.offerings[k], i)
	}
	e.outs = make(map[finopsv1.Reference]subscription.Outcome, len(r.Subscriptions.Subscriptions))
	for _, o := range r.Subscriptions.Subscriptions {
		e.outs[finopsv1.Reference{Namespace: o.Namespace, Name: o.Name}] = o
	}
	e.full = len(r.Subscriptions.Errors) > 0
	r.Subscriptions.Subscriptions = nil
	e.res = r
	return nil
}

// fullStep evaluates everything and lists every outcome, and the keys
// that had one before and have none now.
func (e *Incremental) fullStep() (Step, error) {
	before := e.outs
	if err := e.evaluateAll(); err != nil {
		return Step{}, err
	}
	st := Step{Full: true, Offerings: true}
	for _, k := range sortedKeys(e.outs) {
		st.Subscriptions = append(st.Subscriptions, e.outs[k])
	}
	for k := range before {
		if _, ok := e.outs[k]; !ok {
			st.Gone = append(st.Gone, k)
		}
	}
	slices.SortFunc(st.Gone, compareKeys)
	return st, nil
}

// step re-evaluates the family of seeds, and the Offerings when
// offerings is set.
func (e *Incremental) step(seeds keySet, offerings bool) (Step, error) {
	if e.full {
		return e.fullStep()
	}
	family := e.family(seeds)
	snap := subscription.Snapshot{Now: e.s.Now, Failures: e.failures, Collection: e.s.Collection,
		Subscriptions: make([]finopsv1.Subscription, 0, len(family))}
	named := keySet{}
	for k := range family {
		x := e.subs[k]
		if x == nil {
			continue
		}
		snap.Subscriptions = append(snap.Subscriptions, *x)
		named[x.Spec.OfferingRef] = struct{}{}
		if t := x.Spec.Lifecycle; t != nil && t.TargetRef != nil {
			named[finopsv1.Reference{Namespace: t.TargetRef.Namespace, Name: t.TargetRef.Name}] = struct{}{}
		}
	}
	for k := range named {
		for _, i := range e.offerings[k] {
			snap.Offerings = append(snap.Offerings, e.s.Offerings[i])
		}
		snap.Objects = append(snap.Objects, e.objects[k]...)
	}
	r, err := subscription.Evaluate(snap)
	if err != nil {
		return Step{}, err
	}
	if len(r.Errors) > 0 {
		// A problem of the snapshot: answer it, and what follows, in full.
		return e.fullStep()
	}
	var st Step
	for k := range family {
		if _, ok := e.outs[k]; ok && e.subs[k] == nil {
			delete(e.outs, k)
			st.Gone = append(st.Gone, k)
		}
	}
	slices.SortFunc(st.Gone, compareKeys)
	for _, o := range r.Subscriptions {
		e.outs[finopsv1.Reference{Namespace: o.Namespace, Name: o.Name}] = o
	}
	st.Subscriptions = r.Subscriptions
	if offerings {
		offs, err := offering.Evaluate(e.offeringSnapshot())
		if err != nil {
			return Step{}, err
		}
		e.res.Offerings = offs
		st.Offerings = true
	}
	return st, nil
}

// offeringSnapshot is what the Offerings' evaluator reads, built from
// the held Subscriptions without sorting or copying them: the order of
// the dependents does not matter to it.
func (e *Incremental) offeringSnapshot() offering.Snapshot {
	os := e.s.offeringSnapshot()
	os.Dependents = make([]offering.Dependent, 0, len(e.subs))
	for _, x := range e.subs {
		os.Dependents = append(os.Dependents, dependentOf(x))
	}
	return os
}

// dependentMoved reports whether what the Offerings read of a
// Subscription differs between old (nil when new) and x.
func dependentMoved(old, x *finopsv1.Subscription) bool {
	return old == nil || dependentOf(old) != dependentOf(x)
}

// dependentOf is what the Offerings' evaluator reads of a Subscription.
func dependentOf(x *finopsv1.Subscription) offering.Dependent {
	return offering.Dependent{Namespace: x.Namespace, Name: x.Name,
		OfferingRef: finopsv1.Reference{Namespace: x.Spec.OfferingRef.Namespace, Name: x.Spec.OfferingRef.Name},
		Ready:       x.Status.Ready == "True"}
}

// tokensOf are the UID and the root stamp x carries: Subscriptions that
// share one are linked.
func tokensOf(x *finopsv1.Subscription) []string {
	if r := x.Status.CompatibilityRoot; r != "" && r != string(x.UID) {
		return []string{string(x.UID), r}
	}
	return []string{string(x.UID)}
}

// subscriptionTarget is the key of the Subscription x's targetRef names,
// if it names one.
func subscriptionTarget(x *finopsv1.Subscription) (finopsv1.Reference, bool) {
	l := x.Spec.Lifecycle
	if l == nil || l.TargetRef == nil {
		return finopsv1.Reference{}, false
	}
	t := l.TargetRef
	if t.APIVersion != finopsv1.APIVersion || t.Kind != finopsv1.KindSubscription {
		return finopsv1.Reference{}, false
	}
	return finopsv1.Reference{Namespace: t.Namespace, Name: t.Name}, true
}

// link adds x's links to the indexes.
func (e *Incremental) link(x *finopsv1.Subscription) { e.index(x, true) }

// unlink drops x's links (none for nil) from the indexes.
func (e *Incremental) unlink(x *finopsv1.Subscription) { e.index(x, false) }

// index adds (add) or drops x's links: its parent, its target and its
// tokens, each keyed to x.
func (e *Incremental) index(x *finopsv1.Subscription, add bool) {
	if x == nil {
		return
	}
	k := x.Key()
	if p := x.Spec.Parent; p != nil {
		setKey(e.children, p.SubscriptionRef, k, add)
	}
	if t, ok := subscriptionTarget(x); ok {
		setKey(e.targeted, t, k, add)
	}
	for _, t := range tokensOf(x) {
		setKey(e.tokens, t, k, add)
	}
}

// linked returns the keys x is linked to (none for nil), itself included.
func (e *Incremental) linked(x *finopsv1.Subscription) keySet {
	out := keySet{}
	if x == nil {
		return out
	}
	k := x.Key()
	out[k] = struct{}{}
	for c := range e.children[k] {
		out[c] = struct{}{}
	}
	for c := range e.targeted[k] {
		out[c] = struct{}{}
	}
	if p := x.Spec.Parent; p != nil {
		out[p.SubscriptionRef] = struct{}{}
	}
	if t, ok := subscriptionTarget(x); ok {
		out[t] = struct{}{}
	}
	for _, t := range tokensOf(x) {
		for c := range e.tokens[t] {
			out[c] = struct{}{}
		}
	}
	return out
}

// family is every key reachable from seeds through the links. Each
// token's keys are gone through once, however many of them carry it: a
// family of f sharing a root is f steps, not f².
func (e *Incremental) family(seeds keySet) keySet {
	seen := make(keySet, len(seeds))
	tokens := map[string]bool{}
	queue := make([]finopsv1.Reference, 0, len(seeds))
	add := func(n finopsv1.Reference) {
		if _, ok := seen[n]; !ok {
			seen[n] = struct{}{}
			queue = append(queue, n)
		}
	}
	for k := range seeds {
		add(k)
	}
	for len(queue) > 0 {
		k := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for c := range e.children[k] {
			add(c)
		}
		for c := range e.targeted[k] {
			add(c)
		}
		x := e.subs[k]
		if x == nil {
			continue
		}
		if p := x.Spec.Parent; p != nil {
			add(p.SubscriptionRef)
		}
		if t, ok := subscriptionTarget(x); ok {
			add(t)
		}
		for _, t := range tokensOf(x) {
			if !tokens[t] {
				tokens[t] = true
				for c := range e.tokens[t] {
					add(c)
				}
			}
		}
	}
	return seen
}

// setKey adds k to the set at m[at] (add), or drops it and the set once
// it is empty.
func setKey[K comparable](m map[K]keySet, at K, k finopsv1.Reference, add bool) {
	s := m[at]
	switch {
	case add && s == nil:
		m[at] = keySet{k: {}}
	case add:
		s[k] = struct{}{}
	case s != nil:
		delete(s, k)
		if len(s) == 0 {
			delete(m, at)
		}
	}
}

func compareKeys(a, b finopsv1.Reference) int {
	if a.Namespace != b.Namespace {
		if a.Namespace < b.Namespace {
			return -1
		}
		return 1
	}
	switch {
	case a.Name < b.Name:
		return -1
	case a.Name > b.Name:
		return 1
	}
	return 0
}

func sortedKeys[V any](m map[finopsv1.Reference]V) []finopsv1.Reference {
	keys := make([]finopsv1.Reference, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareKeys)
	return keys
}
