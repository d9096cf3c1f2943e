package finops_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/finops/finopstest"
	st "github.com/condengine/condengine/subscription/subscriptiontest"
)

// incrementalMachine tells an Incremental of drawn changes and holds its
// result, after each, equal to a full evaluation of the snapshot it
// describes.
type incrementalMachine struct {
	inc *finops.Incremental
}

// keys are the Subscriptions held, in order, with a name not yet used.
func (m *incrementalMachine) keys() []finopsv1.Reference {
	var out []finopsv1.Reference
	for _, x := range m.inc.Snapshot().Subscriptions {
		out = append(out, x.Key())
	}
	return out
}

// edit draws a change to x that moves what links it to others: its
// parent, its root stamp, its UID, its Offering, its readiness, its
// target, its deletion, its generation.
func (m *incrementalMachine) edit(t *rapid.T, x finopsv1.Subscription) finopsv1.Subscription {
	s := m.inc.Snapshot()
	keys := m.keys()
	pick := func(label string) finopsv1.Subscription {
		if len(s.Subscriptions) == 0 {
			return x
		}
		return s.Subscriptions[rapid.IntRange(0, len(s.Subscriptions)-1).Draw(t, label)]
	}
	for range rapid.IntRange(1, 3).Draw(t, "edits") {
		switch rapid.IntRange(0, 8).Draw(t, "edit") {
		case 0:
			switch rapid.IntRange(0, 2).Draw(t, "parentKind") {
			case 0:
				x.Spec.Parent = nil
			case 1:
				x.Spec.Parent = &finopsv1.Parent{SubscriptionRef: finopsv1.Reference{Namespace: x.Namespace, Name: "ghost"}}
			default:
				if len(keys) > 0 {
					x.Spec.Parent = &finopsv1.Parent{SubscriptionRef: keys[rapid.IntRange(0, len(keys)-1).Draw(t, "parent")]}
				}
			}
		case 1:
			x.Status.CompatibilityRoot = rapid.SampledFrom([]string{"", string(pick("rootOf").UID), pick("stampOf").Status.CompatibilityRoot, string(x.UID)}).Draw(t, "root")
		case 2:
			x.UID = rapid.SampledFrom([]types.UID{x.UID, pick("uidOf").UID, types.UID(fmt.Sprintf("u-new-%d", rapid.IntRange(0, 3).Draw(t, "uid")))}).Draw(t, "newUID")
		case 3:
			if len(s.Offerings) > 0 {
				o := s.Offerings[rapid.IntRange(0, len(s.Offerings)-1).Draw(t, "offering")]
				x.Spec.OfferingRef = finopsv1.Reference{Namespace: o.Namespace, Name: o.Name}
			}
		case 4:
			x.Status.Ready = rapid.SampledFrom([]metav1.ConditionStatus{"", metav1.ConditionTrue, metav1.ConditionFalse}).Draw(t, "ready")
		case 5:
			if len(keys) > 0 {
				k := keys[rapid.IntRange(0, len(keys)-1).Draw(t, "target")]
				x.Spec.Lifecycle = &finopsv1.SubscriptionLifecycle{TargetRef: &finopsv1.TargetRef{APIVersion: finopsv1.APIVersion, Kind: finopsv1.KindSubscription, Namespace: k.Namespace, Name: k.Name}}
			}
		case 6:
			x = st.New(x.Namespace, x.Name, st.UID(string(x.UID)), st.Offering(x.Spec.OfferingRef.Namespace, x.Spec.OfferingRef.Name),
				st.Active(s.Now.Add(-time.Hour), rapid.SampledFrom([]string{string(x.UID), string(pick("activeRoot").UID)}).Draw(t, "activeRoot")))
		case 7:
			st.Deleting(s.Now)(&x)
		default:
			x.Generation++
		}
	}
	return x
}

func (m *incrementalMachine) Set(t *rapid.T) {
	s := m.inc.Snapshot()
	var x finopsv1.Subscription
	if len(s.Subscriptions) > 0 && rapid.IntRange(0, 3).Draw(t, "existing") > 0 {
		x = s.Subscriptions[rapid.IntRange(0, len(s.Subscriptions)-1).Draw(t, "which")]
	} else {
		n := rapid.IntRange(0, 40).Draw(t, "newName")
		x = st.New("team-a", fmt.Sprintf("n%d", n), st.UID(fmt.Sprintf("u-n%d", n)), st.Offering("shop", "o0"))
	}
	x = m.edit(t, x)
	_, err := m.inc.SetSubscription(x)
	require.NoError(t, err)
}

func (m *incrementalMachine) Delete(t *rapid.T) {
	keys := m.keys()
	if len(keys) == 0 {
		t.Skip("nothing to delete")
	}
	_, err := m.inc.DeleteSubscription(keys[rapid.IntRange(0, len(keys)-1).Draw(t, "delete")])
	require.NoError(t, err)
}

func (m *incrementalMachine) Update(t *rapid.T) {
	step := rapid.IntRange(0, 2).Draw(t, "update")
	_, err := m.inc.Update(func(s *finops.Snapshot) {
		switch step {
		case 0:
			s.Now = s.Now.Add(time.Duration(rapid.IntRange(1, 7200).Draw(t, "elapsed")) * time.Second)
		case 1:
			if len(s.Offerings) > 0 {
				s.Offerings = slices.Clone(s.Offerings)
				o := &s.Offerings[rapid.IntRange(0, len(s.Offerings)-1).Draw(t, "offDown")]
				o.Status.Ready = metav1.ConditionFalse
			}
		default:
			s.Failures = nil
		}
	})
	require.NoError(t, err)
}

// Check: the kept result is a full evaluation's.
func (m *incrementalMachine) Check(t *rapid.T) {
	want, err := finops.Evaluate(m.inc.Snapshot())
	require.NoError(t, err)
	require.Equal(t, want, m.inc.Result())
}

// After every change, Incremental's result is Evaluate's of the snapshot
// it describes: a change of one Subscription re-evaluates its family and
// leaves everything else as a full evaluation would leave it.
func TestProperty_IncrementalEqualsEvaluate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := finopstest.SnapshotGen().Draw(t, "snapshot")
		inc, r, err := finops.NewIncremental(s)
		if errors.Is(err, finops.ErrDuplicateSubscription) {
			t.Skip("a Subscription listed twice")
		}
		require.NoError(t, err)
		want, err := finops.Evaluate(s)
		require.NoError(t, err)
		require.Equal(t, want, r)
		m := &incrementalMachine{inc: inc}
		t.Repeat(rapid.StateMachineActions(m))
	})
}
