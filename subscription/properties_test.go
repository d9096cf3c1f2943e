package subscription_test

import (
	"cmp"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"pgregory.net/rapid"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/conditions/conditionstest"
	"github.com/condengine/condengine/subscription"
	st "github.com/condengine/condengine/subscription/subscriptiontest"
)

// settled draws a world, settles it and disturbs it: a snapshot with
// active, held and deactivated Subscriptions and fresh events to react to.
func settled(t *rapid.T) subscription.Snapshot {
	w := st.World(t)
	for range rapid.IntRange(1, 3).Draw(t, "epochs") {
		var err error
		if w, _, err = subscription.Settle(w, len(w.Subscriptions)+4); err != nil {
			t.Fatalf("world did not settle: %v", err)
		}
		w = st.Disturb(t, w)
	}
	return w
}

// checkOutcome asserts the invariants every outcome must meet against the
// Subscription it was computed from.
func checkOutcome(t interface {
	Fatalf(string, ...any)
}, in *finopsv1.Subscription, o subscription.Outcome) {
	id := in.Namespace + "/" + in.Name
	if o.Skip == conditions.SkipStale {
		return
	}
	s := o.Status
	if errs := subscription.Vocabulary.Validate(s.Conditions, in.Generation, field.NewPath("status", "conditions")); len(errs) > 0 {
		t.Fatalf("%s: conditions invalid: %v", id, errs.ToAggregate())
	}
	ready := conditions.Find(s.Conditions, subscription.TypeReady)
	active := conditions.Find(s.Conditions, subscription.TypeActive)
	if ready == nil {
		t.Fatalf("%s: no Ready condition", id)
	}
	if string(s.Ready) != string(ready.Status) {
		t.Fatalf("%s: status.ready %q disagrees with Ready %q", id, s.Ready, ready.Status)
	}
	if ready.Status == metav1.ConditionTrue && (active == nil || active.Status != metav1.ConditionTrue) {
		t.Fatalf("%s: Ready True without Active True", id)
	}
	if active != nil && active.Status == metav1.ConditionFalse {
		if ready.Status != metav1.ConditionFalse || ready.Reason != string(subscription.ReasonValidationSucceeded) {
			t.Fatalf("%s: Active False paired with Ready %s %s", id, ready.Status, ready.Reason)
		}
		if s.DeactivatedAt == nil {
			t.Fatalf("%s: Active False without deactivatedAt", id)
		}
	}
	if in.Status.ActivatedAt != nil && (s.ActivatedAt == nil || !s.ActivatedAt.Equal(in.Status.ActivatedAt)) {
		t.Fatalf("%s: activatedAt moved from %v to %v", id, in.Status.ActivatedAt, s.ActivatedAt)
	}
	if in.Status.DeactivatedAt != nil {
		if s.DeactivatedAt == nil || !s.DeactivatedAt.Equal(in.Status.DeactivatedAt) {
			t.Fatalf("%s: deactivatedAt moved from %v to %v", id, in.Status.DeactivatedAt, s.DeactivatedAt)
		}
		was := conditions.Find(in.Status.Conditions, subscription.TypeActive)
		if active != nil && active.Status == metav1.ConditionTrue && (was == nil || was.Status != metav1.ConditionTrue) {
			t.Fatalf("%s: Active set True after deactivation", id)
		}
	}
	if in.Status.CompatibilityRoot != "" && s.CompatibilityRoot != in.Status.CompatibilityRoot {
		t.Fatalf("%s: compatibilityRoot moved from %q to %q", id, in.Status.CompatibilityRoot, s.CompatibilityRoot)
	}
	del := conditions.Find(s.Conditions, subscription.TypeDeleting)
	if (del != nil) != in.IsDeleting() {
		t.Fatalf("%s: Deleting present=%v, deleting=%v", id, del != nil, in.IsDeleting())
	}
	if c := conditions.Find(s.Conditions, subscription.TypeCostsResolved); c != nil && c.Status != metav1.ConditionTrue {
		t.Fatalf("%s: CostsResolved %s", id, c.Status)
	}
	if o.Finalizer == conditions.FinalizerRemove && !in.IsDeleting() {
		t.Fatalf("%s: finalizer released on an object that is not being deleted", id)
	}
}

func checkResult(t *rapid.T, snap subscription.Snapshot, res subscription.Result) {
	by := map[finopsv1.Reference]*finopsv1.Subscription{}
	for i := range snap.Subscriptions {
		by[snap.Subscriptions[i].Key()] = &snap.Subscriptions[i]
	}
	if len(res.Subscriptions) != len(by) {
		t.Fatalf("%d outcomes for %d Subscriptions", len(res.Subscriptions), len(by))
	}
	for _, o := range res.Subscriptions {
		checkOutcome(t, by[finopsv1.Reference{Namespace: o.Namespace, Name: o.Name}], o)
	}
	conditionstest.CheckOutcomes(t, subscription.Vocabulary, res.Subscriptions)
}

func TestProperty_InvariantsHoldOnEveryOutcome(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		snap := settled(t)
		checkResult(t, snap, evaluate(snap))
	})
}

func TestProperty_OrderIndependence(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		snap := settled(t)
		want := evaluate(snap)
		got := evaluate(st.Shuffle(t, snap))
		if d := gocmp.Diff(want, got); d != "" {
			t.Fatalf("result depends on list order (-want +got):\n%s", d)
		}
		checkResult(t, snap, got)
	})
}

func TestProperty_Idempotence(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		snap := settled(t)
		if d := gocmp.Diff(evaluate(snap), evaluate(snap)); d != "" {
			t.Fatalf("two evaluations of one snapshot differ:\n%s", d)
		}
		done, _, err := subscription.Settle(snap, len(snap.Subscriptions)+4)
		if err != nil {
			t.Fatalf("did not settle: %v", err)
		}
		for _, o := range evaluate(done).Subscriptions {
			if o.Write || o.Finalizer == conditions.FinalizerRemove {
				t.Fatalf("%s/%s: settled state still writes (write=%v finalizer=%v)", o.Namespace, o.Name, o.Write, o.Finalizer == conditions.FinalizerRemove)
			}
		}
	})
}

// TestProperty_OneWay follows Subscriptions through several rounds of
// events: activatedAt, deactivatedAt and compatibilityRoot, once set,
// never change, and nothing deactivated is ever active again.
func TestProperty_OneWay(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		snap := st.World(t)
		type seen struct {
			activated, deactivated *metav1.Time
			root                   string
		}
		first := map[finopsv1.Reference]seen{}
		for round := range rapid.IntRange(2, 6).Draw(t, "rounds") {
			if round > 0 {
				snap = st.Disturb(t, snap)
			}
			res := evaluate(snap)
			checkResult(t, snap, res)
			snap.Subscriptions = subscription.Apply(snap.Subscriptions, res)
			for _, s := range snap.Subscriptions {
				f, ok := first[s.Key()]
				if ok {
					if f.activated != nil && !f.activated.Equal(s.Status.ActivatedAt) {
						t.Fatalf("%s: activatedAt moved", s.Key())
					}
					if f.deactivated != nil && !f.deactivated.Equal(s.Status.DeactivatedAt) {
						t.Fatalf("%s: deactivatedAt moved", s.Key())
					}
					if f.deactivated != nil {
						if a := conditions.Find(s.Status.Conditions, subscription.TypeActive); a != nil && a.Status == metav1.ConditionTrue {
							t.Fatalf("%s: active again after deactivation", s.Key())
						}
					}
					if f.root != "" && f.root != s.Status.CompatibilityRoot {
						t.Fatalf("%s: root moved", s.Key())
					}
				}
				if f.activated == nil {
					f.activated = s.Status.ActivatedAt
				}
				if f.deactivated == nil {
					f.deactivated = s.Status.DeactivatedAt
				}
				if f.root == "" {
					f.root = s.Status.CompatibilityRoot
				}
				first[s.Key()] = f
			}
		}
	})
}

func TestProperty_SettleConvergesWhateverTheOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		snap := settled(t)
		limit := len(snap.Subscriptions) + 4
		a, _, errA := subscription.Settle(snap, limit)
		b, _, errB := subscription.Settle(st.Shuffle(t, snap), limit)
		if errA != nil || errB != nil {
			t.Fatalf("did not settle within %d rounds: %v, %v", limit, errA, errB)
		}
		sortSubs := func(s []finopsv1.Subscription) {
			slices.SortFunc(s, func(x, y finopsv1.Subscription) int {
				return cmp.Or(cmp.Compare(x.Namespace, y.Namespace), cmp.Compare(x.Name, y.Name))
			})
		}
		sortSubs(a.Subscriptions)
		sortSubs(b.Subscriptions)
		if d := gocmp.Diff(a.Subscriptions, b.Subscriptions); d != "" {
			t.Fatalf("settled state depends on list order:\n%s", d)
		}
	})
}

// Explain is Evaluate with a recorder: its outcomes are Evaluate's to the
// last field once their provenance is set aside, and each condition's
// provenance names the rule that wrote it, one whose Writes hold the
// condition's status and reason (the shared rules aside: a stale
// snapshot or another writer's condition).
func TestProperty_ExplainIsEvaluateWithItsRulesNamed(t *testing.T) {
	table := map[string]conditions.Rule{}
	for _, r := range subscription.Rules() {
		table[r.ID] = r
	}
	shared := map[string]bool{}
	for _, r := range conditions.SharedRules() {
		shared[r.ID] = true
	}
	rapid.Check(t, func(t *rapid.T) {
		snap := settled(t)
		want, err := subscription.Evaluate(snap)
		if err != nil {
			t.Fatal(err)
		}
		got, err := subscription.Explain(snap)
		if err != nil {
			t.Fatal(err)
		}
		for i := range got.Subscriptions {
			o := &got.Subscriptions[i]
			for k, c := range o.Status.Conditions {
				p := o.Provenance[k]
				if shared[p.Rule] {
					continue
				}
				r, ok := table[p.Rule]
				if !ok || !slices.ContainsFunc(r.Writes, func(w conditions.Reason) bool {
					return w.Status == c.Status && w.Reason == c.Reason && slices.Contains(r.Types, c.Type)
				}) {
					t.Fatalf("%s/%s: %s %s %s explained by rule %q, which does not write it", o.Namespace, o.Name, c.Type, c.Status, c.Reason, p.Rule)
				}
			}
			o.Provenance = nil
		}
		if d := gocmp.Diff(want, got); d != "" {
			t.Fatalf("Explain decided otherwise than Evaluate (-Evaluate +Explain):\n%s", d)
		}
	})
}
