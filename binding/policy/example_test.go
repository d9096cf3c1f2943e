package policy_test

import (
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/binding/policy"
)

// A write that keeps failing is retried after one gap, then after twice
// the wait before, up to the cap.
func ExampleLimits_Decide() {
	l := policy.DefaultLimits()
	start := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	computed := []metav1.Condition{{Type: "Ready", Status: metav1.ConditionTrue, Reason: "OK",
		ObservedGeneration: 1, LastTransitionTime: metav1.NewTime(start)}}
	var mem policy.Memory
	now := start
	for range 8 {
		d := l.Decide(policy.WriterInput{Computed: computed, Memory: &mem, Leader: true, Now: now})
		if d.Action == policy.Wait {
			now = d.At
			continue
		}
		fmt.Println(now.Sub(start), d.Action)
		mem = mem.Failed(now)
	}
	// Output:
	// 0s write
	// 10s write
	// 30s write
	// 1m10s write
}

// A pass starts at once when none ran; a config change right after waits
// for the spacing: due exactly 30 s after the first pass started.
func ExampleLimits_NextPass() {
	l := policy.DefaultLimits()
	t := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	s := policy.ProberState{}.Trigger(policy.TriggerLeaderStart, t)
	d := l.NextPass(s, t)
	fmt.Println(d.Start, d.Cause)
	s = s.Started(t).Finished().Trigger(policy.TriggerConfig, t.Add(2*time.Second))
	d = l.NextPass(s, t.Add(5*time.Second))
	fmt.Println(d.Start, d.Cause, d.At.Sub(t))
	// Output:
	// true leader start
	// false config change 30s
}

// The longest pass over N Bindings whose probes all time out.
func ExampleLimits_MaxPassDuration() {
	l := policy.DefaultLimits()
	for _, n := range []int{1, 2, 5, 100} {
		fmt.Println(n, l.MaxPassDuration(n))
	}
	// Output:
	// 1 10s
	// 2 10s
	// 5 30s
	// 100 8m20s
}
