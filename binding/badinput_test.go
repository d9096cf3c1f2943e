package binding_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	bt "github.com/condengine/condengine/binding/bindingtest"
)

// TestBadInput feeds what an informer cache or a careless test could
// hold. Each case says what it must produce; none may panic, and every
// result must pass the invariants (no leak, valid conditions).
func TestBadInput(t *testing.T) {
	huge := strings.Repeat("x", 10<<20)
	cases := []struct {
		rule  string
		edit  func(*binding.Snapshot)
		check func(t *testing.T, r binding.Result)
	}{
		{"Binding without a name is left out with an error", func(s *binding.Snapshot) { s.Bindings[0].Name = "" },
			func(t *testing.T, r binding.Result) {
				assert.Empty(t, r.Bindings)
				requireError(t, r, "metadata.name is required")
			}},
		{"Binding without a namespace", func(s *binding.Snapshot) { s.Bindings[0].Namespace = "" },
			func(t *testing.T, r binding.Result) { requireError(t, r, "metadata.namespace is required") }},
		{"Binding without a uid", func(s *binding.Snapshot) { s.Bindings[0].UID = "" },
			func(t *testing.T, r binding.Result) { requireError(t, r, "metadata.uid is required") }},
		{"negative generation", func(s *binding.Snapshot) { s.Bindings[0].Generation = -1 },
			func(t *testing.T, r binding.Result) { requireError(t, r, "metadata.generation") }},
		{"backend without metadata is left out and reads as not found", func(s *binding.Snapshot) { s.Backends[0].ObjectMeta = metav1.ObjectMeta{} },
			func(t *testing.T, r binding.Result) {
				requireError(t, r, "metadata.name is required")
				assert.Equal(t, string(binding.ReasonBackendNotFound), reasonOf(r, binding.TypeAccepted))
			}},
		{"a Binding naming itself is just a reference to another kind", func(s *binding.Snapshot) {
			s.Bindings[0].Spec.Agent.BackendRef.Name = s.Bindings[0].Name
			s.Bindings[0].Spec.Chat.ConnectionRef.Name = s.Bindings[0].Name
		}, func(t *testing.T, r binding.Result) {
			assert.Equal(t, string(binding.ReasonBackendNotFound), reasonOf(r, binding.TypeAccepted))
		}},
		{"empty strings everywhere", func(s *binding.Snapshot) {
			s.Bindings[0].Spec = akv1.BindingSpec{}
			s.Backends[0].Spec = akv1.AgentBackendSpec{}
			s.Connections[0].Spec = akv1.ChatConnectionSpec{}
		}, func(t *testing.T, r binding.Result) {
			assert.Equal(t, string(binding.ReasonInvalidSpec), reasonOf(r, binding.TypeAccepted))
		}},
		{"unknown platform", func(s *binding.Snapshot) { s.Connections[0].Spec.Platform = "carrier-pigeon" },
			func(t *testing.T, r binding.Result) {
				assert.Equal(t, string(binding.ReasonConnectionRejected), reasonOf(r, binding.TypeAccepted))
			}},
		{"probes for unknown uids and future generations are reported", func(s *binding.Snapshot) {
			s.Probes = append(s.Probes, binding.ProbeResult{UID: "nobody", Generation: 1, Backend: bt.CardOK()},
				binding.ProbeResult{UID: s.Bindings[0].UID, Generation: 99, Backend: bt.HTTP(500)},
				binding.ProbeResult{Generation: 1})
		}, func(t *testing.T, r binding.Result) {
			assert.Len(t, r.IgnoredProbes, 3)
			assert.Equal(t, string(binding.ReasonOK), reasonOf(r, binding.TypeBackendReachable))
		}},
		{"duplicate uids leave both objects out", func(s *binding.Snapshot) {
			twin := bt.NewBinding("team-a", "twin", bt.Channel("C2"))
			twin.UID = s.Bindings[0].UID
			s.Bindings = append(s.Bindings, twin)
		}, func(t *testing.T, r binding.Result) {
			assert.Empty(t, r.Bindings)
			assert.Len(t, r.Errors, 2)
		}},
		{"a uid shared across kinds", func(s *binding.Snapshot) { s.Backends[0].UID = s.Bindings[0].UID },
			func(t *testing.T, r binding.Result) { assert.Len(t, r.Errors, 2) }},
		{"a 10 MiB probe error stays out of status and is cut in the log", func(s *binding.Snapshot) {
			s.Probes[0].Backend = bt.BackendFailed(huge)
			s.Probes[0].Channel = bt.PlatformError(huge)
		}, func(t *testing.T, r binding.Result) {
			require.Len(t, r.Bindings, 1)
			for _, c := range r.Bindings[0].Causes {
				assert.LessOrEqual(t, len(c.Detail), binding.MaxCauseBytes)
			}
		}},
		{"a 10 MiB channel is quoted short", func(s *binding.Snapshot) { s.Bindings[0].Spec.Chat.Channel = huge },
			func(t *testing.T, r binding.Result) {
				assert.Equal(t, string(binding.ReasonInvalidSpec), reasonOf(r, binding.TypeAccepted))
			}},
		{"a 10 MiB backend url", func(s *binding.Snapshot) { s.Backends[0].Spec.URL = "https://" + huge },
			func(t *testing.T, r binding.Result) {
				assert.Equal(t, string(binding.ReasonOK), reasonOf(r, binding.TypeAccepted), "long, but a valid URL")
			}},
		{"invalid UTF-8 in the channel", func(s *binding.Snapshot) { s.Bindings[0].Spec.Chat.Channel = "C\xff\xfe" },
			func(t *testing.T, r binding.Result) {
				assert.Equal(t, string(binding.ReasonInvalidSpec), reasonOf(r, binding.TypeAccepted))
			}},
		{"memory entry without a spec", func(s *binding.Snapshot) {
			s.Served.Objects = append(s.Served.Objects, binding.Served{Kind: akv1.KindBinding, UID: s.Bindings[0].UID, Generation: 1})
		}, func(t *testing.T, r binding.Result) { requireError(t, r, "memory entry") }},
		{"memory entry of an unknown kind", func(s *binding.Snapshot) {
			s.Served.Objects = append(s.Served.Objects, binding.Served{Kind: "Pod", UID: "x", Generation: 1})
		}, func(t *testing.T, r binding.Result) { requireError(t, r, "memory entry") }},
		{"conflicting memory entries for one uid", func(s *binding.Snapshot) {
			a, b := s.Bindings[0].Spec, s.Bindings[0].Spec
			b.Chat.Channel = "C7"
			s.Served.Objects = append(s.Served.Objects, served(string(s.Bindings[0].UID), 1, "team-a", "chat", a),
				served(string(s.Bindings[0].UID), 1, "team-a", "chat", b))
		}, func(t *testing.T, r binding.Result) { requireError(t, r, "different entries") }},
		{"zero time and zero broker", func(s *binding.Snapshot) { s.Now = s.Now.AddDate(-2026, 0, 0); s.Broker = binding.Broker{} },
			func(t *testing.T, r binding.Result) { assert.False(t, r.Bindings[0].Write) }},
	}
	for _, tc := range cases {
		t.Run(tc.rule, func(t *testing.T) {
			b := bt.NewBinding("team-a", "chat")
			s := world(b)
			s.Probes = []binding.ProbeResult{bt.Probe(b, 1, bt.CardOK(), bt.Joined())}
			tc.edit(&s)
			r, _ := evaluate(t, s)
			if tc.check != nil {
				tc.check(t, r)
			}
		})
	}
}

func requireError(t *testing.T, r binding.Result, contains string) {
	t.Helper()
	for _, e := range r.Errors {
		if strings.Contains(e.Problem, contains) {
			return
		}
	}
	t.Fatalf("no error containing %q in %v", contains, r.Errors)
}

func reasonOf(r binding.Result, typ string) string {
	if len(r.Bindings) == 0 {
		return ""
	}
	for _, c := range r.Bindings[0].Conditions {
		if c.Type == typ {
			return c.Reason
		}
	}
	return ""
}
