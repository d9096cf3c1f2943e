package sim

import (
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"pgregory.net/rapid"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
)

// Whatever a script does (edits, deletions, re-creations, foreign edits,
// failing writes, slow or broken backends, a failover, other
// controllers' conditions), the brokers keep the rules: one replica never
// writes a UID twice within a gap, every status that lands is valid for
// the object's generation, only a leader writes, and once the script
// stops the writes stop.
func TestSimulation_PropertyInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := New(Options{LookPhase: time.Duration(rapid.Int64Range(0, int64(10*time.Second)).Draw(t, "look"))})
		s.AddBackend("team-a", "echo", FastOK())
		s.AddBackend("team-a", "slow", BackendBehavior{Delay: time.Minute})
		s.AddConnection("team-a", "slack")
		names := []string{"x", "y", "z"}
		for _, n := range names {
			s.Create("team-a", n, "echo", "slack", "C-"+n)
		}
		a := s.StartReplica("a")
		s.StartReplica("b")
		crashed := false
		for i := range rapid.IntRange(1, 12).Draw(t, "steps") {
			s.Run(time.Duration(rapid.Int64Range(0, int64(time.Minute)).Draw(t, fmt.Sprint("wait", i))))
			n := rapid.SampledFrom(names).Draw(t, fmt.Sprint("name", i))
			switch rapid.IntRange(0, 7).Draw(t, fmt.Sprint("action", i)) {
			case 0:
				ch := rapid.SampledFrom([]string{"C-x", "C-y", "C-z", "C-w", "bad channel"}).Draw(t, fmt.Sprint("channel", i))
				s.Edit("team-a", n, func(sp *akv1.BindingSpec) { sp.Chat.Channel = ch })
			case 1:
				s.Delete("team-a", n)
			case 2:
				if s.Binding("team-a", n) == nil {
					s.Create("team-a", n, rapid.SampledFrom([]string{"echo", "slow", "ghost"}).Draw(t, fmt.Sprint("be", i)), "slack", "C-"+n)
				}
			case 3:
				s.ForeignEdit("team-a", n, []metav1.Condition{{Type: binding.TypeReady, Status: metav1.ConditionTrue,
					Reason: "Forged", LastTransitionTime: metav1.NewTime(s.Now().Truncate(time.Second))}})
			case 4:
				if b := s.Binding("team-a", n); b != nil {
					s.FailWrites(b.UID, s.Now().Add(time.Minute))
				}
			case 5:
				s.SetBackend("team-a", "echo", BackendBehavior{Delay: time.Second,
					Answer: binding.BackendObservation{HTTPStatus: rapid.SampledFrom([]int{200, 404, 429, 500}).Draw(t, fmt.Sprint("http", i))}})
			case 6:
				if !crashed {
					a.Crash()
					crashed = true
				}
			case 7:
				s.ApplyOther("team-a", n, metav1.Condition{Type: "audit.example.com/Reviewed", Status: metav1.ConditionTrue,
					Reason:             rapid.SampledFrom([]string{"Reviewed", "Pending"}).Draw(t, fmt.Sprint("other", i)),
					LastTransitionTime: metav1.NewTime(s.Now().Truncate(time.Second))})
			}
		}
		s.Run(2 * time.Minute)
		// Once the script stops, the brokers stop writing: a fight or a
		// backoff runs out within the quiet time and nothing else changes,
		// wherever other controllers' conditions stand.
		s.Run(13 * time.Minute)
		settledAt := s.Now()
		s.Run(6 * time.Minute) // a periodic pass included
		for _, w := range s.Writes {
			if !w.At.Before(settledAt) {
				t.Fatalf("%s wrote %s at %v, after the world settled", w.Replica, w.Name, w.At)
			}
		}

		type rk struct {
			replica string
			uid     types.UID
		}
		lastEnd := map[rk]time.Time{}
		for _, w := range s.Writes {
			k := rk{w.Replica, w.UID}
			if prev, ok := lastEnd[k]; ok && w.At.Sub(prev) < s.Limits().WriteGap {
				t.Fatalf("%s wrote %s at %v, %v after its last write", w.Replica, w.Name, w.At, w.At.Sub(prev))
			}
			lastEnd[k] = w.End
			if !w.OK {
				continue
			}
			if errs := binding.Vocabulary.Validate(w.Conditions, w.Generation, field.NewPath("status", "conditions")); len(errs) > 0 {
				t.Fatalf("%s wrote an invalid status to %s at %v: %v", w.Replica, w.Name, w.At, errs.ToAggregate())
			}
			if w.Replica == "a" && crashed && w.At.After(crashTime(s)) {
				t.Fatalf("the crashed replica wrote at %v", w.At)
			}
		}
	})
}

// crashTime is when replica "a" stopped: its last tick.
func crashTime(s *Sim) time.Time {
	for _, r := range s.replicas {
		if r.Name == "a" && !r.alive {
			return r.diedAt
		}
	}
	return time.Time{}
}
