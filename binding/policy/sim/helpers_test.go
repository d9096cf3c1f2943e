package sim

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/conditions"
)

// settled builds a world with one backend, one connection and the given
// Bindings (name = channel), starts replica "a", and runs until every
// Binding is Ready=True.
func settled(t *testing.T, o Options, names ...string) (*Sim, *Replica) {
	t.Helper()
	s := New(o)
	s.AddBackend("team-a", "echo", FastOK())
	s.AddConnection("team-a", "slack")
	for _, n := range names {
		s.Create("team-a", n, "echo", "slack", "C-"+n)
	}
	r := s.StartReplica("a")
	s.Run(3 * time.Minute)
	for _, n := range names {
		require.Equal(t, "True", readyOf(s.Binding("team-a", n)), "%s settles Ready=True", n)
	}
	return s, r
}

func cond(b *akv1.Binding, typ string) *metav1.Condition {
	if b == nil {
		return nil
	}
	return conditions.Find(b.Status.Conditions, typ)
}

func readyOf(b *akv1.Binding) string {
	if c := cond(b, binding.TypeReady); c != nil {
		return string(c.Status)
	}
	return ""
}

// first returns the first state of the name's status after from that
// satisfies ok.
func first(s *Sim, name string, from time.Time, ok func(Status) bool) (Status, bool) {
	for _, h := range s.History("team-a", name) {
		if !h.At.Before(from) && ok(h) {
			return h, true
		}
	}
	return Status{}, false
}

func generationOf(conds []metav1.Condition, typ string) int64 {
	if c := conditions.Find(conds, typ); c != nil {
		return c.ObservedGeneration
	}
	return -1
}

func writesBy(s *Sim, replica string, uid types.UID, from time.Time) []Write {
	var out []Write
	for _, w := range s.Writes {
		if w.Replica == replica && w.UID == uid && !w.At.Before(from) {
			out = append(out, w)
		}
	}
	return out
}
