package sim

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/conditions"
)

// typesOf renders a list as type and reason per entry: the tests mark
// live entries with the reason "." and applied ones with "+".
func typesOf(cs []metav1.Condition) string {
	var b []string
	for _, c := range cs {
		b = append(b, c.Type+c.Reason)
	}
	return strings.Join(b, " ")
}

func conds(spec string, reason string) []metav1.Condition {
	var out []metav1.Condition
	for _, t := range strings.Fields(spec) {
		out = append(out, metav1.Condition{Type: t, Reason: reason})
	}
	return out
}

// The store merges like an API server's server-side apply of a list keyed
// by type: other managers' entries stay where they are, ours are replaced
// in applied order, ours no longer applied are removed.
func TestApplyConditions_MergesByTypeLikeServerSideApply(t *testing.T) {
	ours := func(t string) bool { return strings.HasPrefix(t, "O") }
	for _, tc := range []struct {
		name, live, applied, want string
	}{
		{"OtherBeforeOursStaysFirst", "X O1 O2", "O1 O2", "X. O1+ O2+"},
		{"OtherAfterOursStaysLast", "O1 O2 X", "O1 O2", "O1+ O2+ X."},
		{"OtherAmongOursStaysThere", "O1 X O2", "O1 O2", "O1+ X. O2+"},
		{"OursPutInAppliedOrder", "O2 X O1", "O1 O2", "X. O1+ O2+"},
		{"OursNoLongerAppliedRemoved", "X O1 O3 O2", "O1 O2", "X. O1+ O2+"},
		{"FirstApplyGoesAfterOthers", "X Y", "O1 O2", "X. Y. O1+ O2+"},
		{"EmptyLive", "", "O1 O2", "O1+ O2+"},
		{"NewTypeAfterItsPredecessor", "X O1 Y O3", "O1 O2 O3", "X. O1+ Y. O2+ O3+"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			live, applied := conds(tc.live, "."), conds(tc.applied, "+")
			got := applyConditions(live, applied, ours)
			assert.Equal(t, tc.want, typesOf(got))
			assert.Equal(t, conds(tc.live, "."), live, "the live list is not modified")
		})
	}
}

// A host that passes the whole condition list to the writer
// converges when another controller's condition stands before ours (as
// an API server keeps it after our applies) and after ours. With the old
// whole-list comparison the first case wrote at every gap, forever.
func TestSimulation_OtherControllersCondition_NoWriteLoop(t *testing.T) {
	other := func(s *Sim) metav1.Condition {
		return metav1.Condition{Type: "audit.example.com/Reviewed", Status: metav1.ConditionTrue, Reason: "Reviewed",
			LastTransitionTime: metav1.NewTime(s.Now().Truncate(time.Second))}
	}
	for _, before := range []bool{true, false} {
		t.Run(map[bool]string{true: "Before", false: "After"}[before], func(t *testing.T) {
			s := New(Options{})
			s.AddBackend("team-a", "echo", FastOK())
			s.AddConnection("team-a", "slack")
			uid := s.Create("team-a", "chat", "echo", "slack", "C1")
			if before {
				// The other controller was first: its condition stands
				// before every one of ours from our first write on.
				s.ApplyOther("team-a", "chat", other(s))
			}
			s.StartReplica("a")
			s.Run(3 * time.Minute)
			if !before {
				s.ApplyOther("team-a", "chat", other(s))
			}
			require.Equal(t, "True", readyOf(s.Binding("team-a", "chat")))
			wantAt := 4
			if before {
				wantAt = 0
			}
			require.Equal(t, wantAt, otherAt(s.Binding("team-a", "chat").Status.Conditions))

			quiet := s.Now()
			s.Run(10 * time.Minute)
			assert.Zero(t, len(writesBy(s, "a", uid, quiet)), "nothing changed, nothing is written")

			// A real change is written once, and the list settles again.
			change := s.Now()
			s.SetBackend("team-a", "echo", BackendBehavior{Delay: 50 * time.Millisecond,
				Answer: binding.BackendObservation{HTTPStatus: 404}})
			s.Run(10 * time.Minute) // two periodic passes
			ws := writesBy(s, "a", uid, change)
			require.Equal(t, 1, len(ws), "one write for one change")
			got := s.Binding("team-a", "chat").Status.Conditions
			assert.Equal(t, string(binding.ReasonAgentNotFound), conditions.Find(got, binding.TypeBackendReachable).Reason)
			assert.Equal(t, wantAt, otherAt(got), "the other controller's condition stays where it stood")
		})
	}
}

func otherAt(cs []metav1.Condition) int {
	for i, c := range cs {
		if !binding.Vocabulary.Has(c.Type) {
			return i
		}
	}
	return -1
}
