package conditions

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// conditionsFromText builds a condition list from fuzz input: one
// condition per line, fields separated by '|': type|status|reason|message|generation.
func conditionsFromText(s string) []metav1.Condition {
	var out []metav1.Condition
	for i, line := range strings.Split(s, "\n") {
		if i >= 64 {
			break
		}
		f := strings.SplitN(line, "|", 5)
		for len(f) < 5 {
			f = append(f, "")
		}
		var gen int64
		for _, r := range f[4] {
			if r >= '0' && r <= '9' && gen < 1<<40 {
				gen = gen*10 + int64(r-'0')
			}
		}
		if strings.HasPrefix(f[4], "-") {
			gen = -gen
		}
		out = append(out, metav1.Condition{Type: f[0], Status: metav1.ConditionStatus(f[1]), Reason: f[2], Message: f[3],
			ObservedGeneration: gen, LastTransitionTime: metav1.NewTime(t0)})
	}
	return out
}

func FuzzValidate(f *testing.F) {
	f.Add("Accepted|True|OK||1\nReady|True|OK||1", int64(1))
	f.Add("Ready|False|NotReady|two\nlines|3", int64(2))
	f.Add("Accepted|Maybe|\xff|x|-1\nAccepted|True|OK||0", int64(-5))
	v := testVocab(f, EmptyMessageWhenTrue())
	f.Fuzz(func(t *testing.T, text string, gen int64) {
		conds := conditionsFromText(text)
		errs := v.Validate(conds, gen, condPath)
		for _, c := range conds {
			if v.Has(c.Type) && c.ObservedGeneration > gen && len(errs) == 0 {
				t.Fatalf("observedGeneration %d above %d passed", c.ObservedGeneration, gen)
			}
			if v.Has(c.Type) && MessageProblem(c.Message) != "" && len(errs) == 0 {
				t.Fatalf("bad message %q passed", c.Message)
			}
		}
	})
}

func FuzzMerge(f *testing.F) {
	f.Add("Accepted|True|OK||1\nFoo|True|X|y|9", "Ready|True|OK||1\nAccepted|False|Invalid|m|1", int64(1))
	v := testVocab(f)
	f.Fuzz(func(t *testing.T, cur, des string, gen int64) {
		current, desired := conditionsFromText(cur), conditionsFromText(des)
		r := v.Merge(current, desired, gen, now)
		if r.Stale {
			return
		}
		again := v.Merge(r.Conditions, desired, gen, now.Add(time.Hour))
		if again.Changed {
			t.Fatalf("not idempotent:\n%v\n%v", r.Conditions, again.Conditions)
		}
		last := -1
		for _, c := range r.Conditions {
			i := v.Index(c.Type)
			if i >= 0 && i <= last {
				t.Fatalf("our types out of order or repeated: %v", r.Conditions)
			}
			if i >= 0 {
				last = i
			}
		}
	})
}
