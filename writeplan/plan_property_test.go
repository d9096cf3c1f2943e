package writeplan_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/writeplan"
)

var (
	ourTypes   = []string{"Ready", "Active", "Deleting", "CostsResolved"}
	theirTypes = []string{"Audited", "Mirrored"}
	// Other writers: an older version of ours writing with an update, a
	// kubectl edit, an auditing controller with conditions of its own.
	otherManagers = []string{"finops-operator-v0", "kubectl-edit", "auditor"}
)

func genCondition(t *rapid.T, label, typ string) metav1.Condition {
	label += "." + typ
	st := rapid.SampledFrom([]metav1.ConditionStatus{metav1.ConditionTrue, metav1.ConditionFalse, metav1.ConditionUnknown}).Draw(t, label+".status")
	return metav1.Condition{
		Type: typ, Status: st,
		Reason:             rapid.SampledFrom([]string{"OK", "Failed", "Pending"}).Draw(t, label+".reason"),
		Message:            rapid.SampledFrom([]string{"", "as computed", "as edited"}).Draw(t, label+".message"),
		ObservedGeneration: rapid.Int64Range(0, 3).Draw(t, label+".gen"),
		LastTransitionTime: metav1.Unix(rapid.Int64Range(1_700_000_000, 1_700_000_003).Draw(t, label+".ltt"), 0),
	}
}

func genConditions(t *rapid.T, label string, types []string) []metav1.Condition {
	picked := rapid.SliceOfDistinct(rapid.SampledFrom(types), func(s string) string { return s }).Draw(t, label)
	out := make([]metav1.Condition, 0, len(picked))
	for _, typ := range picked {
		out = append(out, genCondition(t, label, typ))
	}
	return out
}

// history writes, through the store, a random sequence of status writes:
// applies of ours (as an earlier plan would have made), and updates by
// other managers that set conditions of our types, of their own, or edit
// one field of a condition already there.
func history(t *rapid.T, s *store) {
	n := rapid.IntRange(0, 6).Draw(t, "writes")
	for i := range n {
		cur := fromU(t, s.get())
		switch rapid.IntRange(0, 2).Draw(t, fmt.Sprintf("write%d", i)) {
		case 0: // our apply
			owned := genConditions(t, fmt.Sprintf("w%d.ours", i), ourTypes)
			o := &conditions.Outcome{Kind: finopsv1.KindSubscription, Namespace: cur.Namespace, Name: cur.Name, Owned: owned,
				Conditions: append(slices.Clone(owned), foreign(cur.Status.Conditions)...), Write: true}
			st := cur.Status
			st.Conditions = owned
			p, err := writeplan.For(cur, o, st, finopsWriter)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range p.Requests {
				if err := s.carry(r); err != nil {
					t.Fatalf("history apply: %v", err)
				}
			}
		case 1: // another manager sets conditions of any type
			m := rapid.SampledFrom(otherManagers).Draw(t, fmt.Sprintf("w%d.manager", i))
			set := genConditions(t, fmt.Sprintf("w%d.theirs", i), append(slices.Clone(ourTypes), theirTypes...))
			next := cur.DeepCopy()
			for _, c := range set {
				next.Status.Conditions = setCondition(next.Status.Conditions, c)
			}
			if err := s.update(toU(t, next), m, "status"); err != nil {
				t.Fatalf("history update: %v", err)
			}
		case 2: // another manager edits one field of one condition
			if len(cur.Status.Conditions) == 0 {
				continue
			}
			m := rapid.SampledFrom(otherManagers).Draw(t, fmt.Sprintf("w%d.editor", i))
			j := rapid.IntRange(0, len(cur.Status.Conditions)-1).Draw(t, fmt.Sprintf("w%d.edited", i))
			next := cur.DeepCopy()
			next.Status.Conditions[j].Message = "edited by hand"
			if err := s.update(toU(t, next), m, "status"); err != nil {
				t.Fatalf("history edit: %v", err)
			}
		}
	}
}

func setCondition(list []metav1.Condition, c metav1.Condition) []metav1.Condition {
	for i := range list {
		if list[i].Type == c.Type {
			list[i] = c
			return list
		}
	}
	return append(list, c)
}

// foreign returns the conditions of types not ours, in their order.
func foreign(list []metav1.Condition) []metav1.Condition {
	var out []metav1.Condition
	for _, c := range list {
		if !slices.Contains(ourTypes, c.Type) {
			out = append(out, c)
		}
	}
	return out
}

func byType(list []metav1.Condition) map[string]metav1.Condition {
	out := map[string]metav1.Condition{}
	for _, c := range list {
		c.LastTransitionTime = metav1.NewTime(c.LastTransitionTime.UTC())
		out[c.Type] = c
	}
	return out
}

// TestPlanLeavesExactlyTheOutcome is the write plan's property: for an
// object whose conditions of our types are owned by us and by other
// managers in any combination, carrying out the plan on a store that keeps
// managed fields as the API server does leaves the status with exactly the
// outcome's conditions (ours as Owned, every other writer's untouched);
// a removal is guarded by the resourceVersion read; a finalizer change
// comes after the status write, and a released deleted object is gone
// only after its status was written.
func TestPlanLeavesExactlyTheOutcome(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s, err := newStore(subGVK)
		if err != nil {
			t.Fatal(err)
		}
		fins := rapid.SliceOfDistinct(rapid.SampledFrom([]string{finopsv1.SubscriptionFinalizer, "other.example/keep"}), func(s string) string { return s }).Draw(t, "finalizers")
		creator := rapid.SampledFrom(append([]string{ourManager}, otherManagers...)).Draw(t, "creator")
		if err := s.create(toU(t, subscription(genConditions(t, "initial", append(slices.Clone(ourTypes), theirTypes...)), fins)), creator); err != nil {
			t.Fatal(err)
		}
		history(t, s)
		// A deletion is only pending while a finalizer holds the object.
		deleting := len(fins) > 0 && rapid.Bool().Draw(t, "deleting")
		if deleting {
			now := metav1.NewTime(time.Unix(1_700_000_100, 0))
			s.live.SetDeletionTimestamp(&now)
		}

		read := fromU(t, s.get())
		owned := genConditions(t, "outcome", ourTypes)
		want := append(slices.Clone(owned), foreign(read.Status.Conditions)...)
		fin := rapid.SampledFrom([]conditions.FinalizerAction{conditions.FinalizerKeep, conditions.FinalizerAdd, conditions.FinalizerRemove}).Draw(t, "finalizer")
		if deleting && fin == conditions.FinalizerAdd {
			fin = conditions.FinalizerRemove
		}
		o := &conditions.Outcome{Kind: finopsv1.KindSubscription, Namespace: read.Namespace, Name: read.Name, UID: read.UID,
			Conditions: want, Owned: owned, Write: true, Finalizer: fin}
		status := read.Status
		status.Ready = rapid.SampledFrom([]metav1.ConditionStatus{"", metav1.ConditionTrue, metav1.ConditionFalse}).Draw(t, "ready")
		status.Conditions = owned

		p, err := writeplan.For(read, o, status, finopsWriter)
		if err != nil {
			t.Fatal(err)
		}
		statusDone := false
		for _, r := range p.Requests {
			switch r.Step {
			case writeplan.StepRemoveConditions:
				if r.ResourceVersion != read.ResourceVersion {
					t.Fatalf("removal guarded by %q, read %q", r.ResourceVersion, read.ResourceVersion)
				}
			case writeplan.StepApplyStatus:
				statusDone = true
			case writeplan.StepAddFinalizer, writeplan.StepRemoveFinalizer:
				if !statusDone {
					t.Fatalf("finalizer change before the status write: %v", p.Requests)
				}
			}
			if err := s.carry(r); err != nil {
				t.Fatalf("%s: %v\nbody %s", r.Step, err, r.Body)
			}
		}

		got := s.get()
		gone := deleting && fin == conditions.FinalizerRemove && !slices.Contains(fins, "other.example/keep") && slices.Contains(fins, finopsv1.SubscriptionFinalizer)
		if gone {
			if got != nil {
				t.Fatalf("a deleted object released of its last finalizer is still stored")
			}
			return
		}
		if got == nil {
			t.Fatalf("object gone; finalizers were %v, action %s", fins, fin)
		}
		after := fromU(t, got)
		if !equalByType(byType(after.Status.Conditions), byType(want)) {
			t.Fatalf("stored conditions differ from the outcome\nstored %v\nwant   %v\nplan   %s", after.Status.Conditions, want, bodies(p))
		}
		if after.Status.Ready != status.Ready {
			t.Fatalf("status.ready %q, want %q", after.Status.Ready, status.Ready)
		}
		has := slices.Contains(after.Finalizers, finopsv1.SubscriptionFinalizer)
		if (fin == conditions.FinalizerAdd && !has) || (fin == conditions.FinalizerRemove && has) {
			t.Fatalf("finalizer %s not carried out: %v", fin, after.Finalizers)
		}
		if slices.Contains(fins, "other.example/keep") != slices.Contains(after.Finalizers, "other.example/keep") {
			t.Fatalf("another finalizer changed: %v -> %v", fins, after.Finalizers)
		}

		// The same read, planned again against the store as it is now,
		// finds nothing left to remove.
		again, err := writeplan.For(after, o, status, finopsWriter)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range again.Requests {
			if r.Step == writeplan.StepRemoveConditions {
				t.Fatalf("a second plan still removes: %s", r.Body)
			}
		}
	})
}

func equalByType(a, b map[string]metav1.Condition) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || v != w {
			return false
		}
	}
	return true
}
