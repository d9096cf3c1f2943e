package binding_test

import (
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	bt "github.com/condengine/condengine/binding/bindingtest"
)

// withFractions is s with a fraction of a second drawn onto every instant
// a Binding carries, on copies: s itself is not changed. Each instant of s
// is whole, so the fraction never moves it to another second. Some
// Bindings are also marked deleted, at the same whole second in both.
func withFractions(t *rapid.T, s binding.Snapshot) (whole, frac binding.Snapshot) {
	whole, frac = s, s
	whole.Bindings = append([]akv1.Binding(nil), s.Bindings...)
	frac.Bindings = append([]akv1.Binding(nil), s.Bindings...)
	ns := func(label string) time.Duration {
		return time.Duration(rapid.Int64Range(0, 999_999_999).Draw(t, label))
	}
	for i := range frac.Bindings {
		w, f := &whole.Bindings[i], &frac.Bindings[i]
		if rapid.IntRange(0, 4).Draw(t, "deleted") == 0 {
			at := metav1.NewTime(s.Now.Add(-time.Minute).Truncate(time.Second))
			w.DeletionTimestamp = &at
			fat := metav1.NewTime(at.Add(ns("deletionFraction")))
			f.DeletionTimestamp = &fat
		}
		f.CreationTimestamp = metav1.NewTime(f.CreationTimestamp.Add(ns("creationFraction")))
		f.Status.Conditions = append([]metav1.Condition(nil), f.Status.Conditions...)
		for k := range f.Status.Conditions {
			c := &f.Status.Conditions[k]
			c.LastTransitionTime = metav1.NewTime(c.LastTransitionTime.Add(ns("transitionFraction")))
		}
	}
	return whole, frac
}

// wholeInstants fails unless every lastTransitionTime of r is whole.
func wholeInstants(t *rapid.T, r binding.Result) {
	for _, o := range r.Bindings {
		for _, c := range o.Status.Conditions {
			if c.LastTransitionTime.Nanosecond() != 0 {
				t.Fatalf("%s/%s: %s lastTransitionTime %s has a fraction", o.Namespace, o.Name, c.Type, c.LastTransitionTime.Format(time.RFC3339Nano))
			}
		}
	}
}

// Every instant a Binding carries is read at whole seconds: a snapshot
// with fractions drawn onto them evaluates exactly as the same snapshot
// at whole seconds, by Evaluate, EvaluateInto (twice, so the second pass
// reuses the first's state) and Incremental, and no fraction reaches a
// condition. The snapshot given is not changed.
func TestEvaluate_InstantsAreReadAtWholeSeconds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		whole, frac := withFractions(t, bt.SnapshotGen().Draw(t, "snapshot"))
		before := instantsOf(frac)
		wantResult := mustEvaluate(whole)
		want := resultJSON(t, wantResult)
		got := mustEvaluate(frac)
		wholeInstants(t, got)
		if g := resultJSON(t, got); g != want {
			t.Fatalf("Evaluate differs with fractions:\nwant %s\ngot  %s", want, g)
		}
		var buf binding.ResultBuffer
		for pass := range 2 {
			if err := binding.EvaluateInto(&buf, frac); err != nil {
				t.Fatal(err)
			}
			wholeInstants(t, buf.Result)
			if g := resultJSON(t, buf.Result); g != want {
				t.Fatalf("EvaluateInto pass %d differs with fractions:\nwant %s\ngot  %s", pass, want, g)
			}
		}
		if _, r, err := binding.NewIncremental(frac); err == nil {
			wholeInstants(t, r)
			if g := resultJSON(t, r); g != want {
				t.Fatalf("NewIncremental differs with fractions:\nwant %s\ngot  %s", want, g)
			}
		}
		// A Binding told to an Incremental with fractions is re-evaluated
		// as it would be at whole seconds.
		if e, _, err := binding.NewIncremental(whole); err == nil && len(frac.Bindings) > 0 {
			i := rapid.IntRange(0, len(frac.Bindings)-1).Draw(t, "told")
			st := e.SetBinding(frac.Bindings[i])
			byUID := map[string]binding.Outcome{}
			for _, o := range wantResult.Bindings {
				byUID[string(o.UID)] = o
			}
			for _, o := range st.Bindings {
				if g, w := resultJSON(t, binding.Result{Bindings: []binding.Outcome{o}}),
					resultJSON(t, binding.Result{Bindings: []binding.Outcome{byUID[string(o.UID)]}}); g != w {
					t.Fatalf("Incremental step differs with fractions:\nwant %s\ngot  %s", w, g)
				}
			}
		}
		if after := instantsOf(frac); !slices.EqualFunc(before, after, time.Time.Equal) {
			t.Fatal("the evaluation changed the snapshot it was given")
		}
	})
}

// instantsOf lists every instant the Bindings of s carry, to the
// nanosecond.
func instantsOf(s binding.Snapshot) []time.Time {
	var out []time.Time
	for _, b := range s.Bindings {
		out = append(out, b.CreationTimestamp.Time)
		if b.DeletionTimestamp != nil {
			out = append(out, b.DeletionTimestamp.Time)
		}
		for _, c := range b.Status.Conditions {
			out = append(out, c.LastTransitionTime.Time)
		}
	}
	return out
}
