package binding_test

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stypes "k8s.io/apimachinery/pkg/types"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	bt "github.com/condengine/condengine/binding/bindingtest"
	"github.com/condengine/condengine/conditions"
)

var now = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

// world is team-a with a valid AgentBackend echo and ChatConnection slack,
// shared with a backend hub and a connection hub-slack that allow every
// namespace, and a leading default broker whose prober has listed.
func world(bindings ...akv1.Binding) binding.Snapshot {
	return binding.Snapshot{
		Now:    now,
		Broker: binding.Broker{Leader: true, ProberListed: true, StartedAt: now.Add(-time.Hour), ConfigSource: binding.ConfigSourceCRDs},
		Backends: []akv1.AgentBackend{bt.NewBackend("team-a", "echo"), bt.NewBackend("shared", "hub", "*"),
			bt.NewBackend("shared", "private")},
		Connections: []akv1.ChatConnection{bt.NewConnection("team-a", "slack"), bt.NewConnection("shared", "hub-slack", "*"),
			bt.NewConnection("shared", "private-slack")},
		Bindings: bindings,
	}
}

// evaluate runs Evaluate, checks the invariants, and indexes the results
// by namespace/name.
func evaluate(t *testing.T, s binding.Snapshot) (binding.Result, map[string]binding.Outcome) {
	t.Helper()
	r := mustEvaluate(s)
	bt.CheckInvariants(t, s, r)
	m := map[string]binding.Outcome{}
	for _, br := range r.Bindings {
		m[br.Namespace+"/"+br.Name] = br
	}
	return r, m
}

func get(t *testing.T, m map[string]binding.Outcome, id string) binding.Outcome {
	t.Helper()
	br, ok := m[id]
	if !ok {
		t.Fatalf("no result for %s", id)
	}
	return br
}

func cond(t *testing.T, br binding.Outcome, typ string) metav1.Condition {
	t.Helper()
	c := conditions.Find(br.Conditions, typ)
	if c == nil {
		t.Fatalf("%s/%s has no %s condition: %v", br.Namespace, br.Name, typ, br.Conditions)
	}
	return *c
}

func typesOf(br binding.Outcome) []string {
	var out []string
	for _, c := range br.Conditions {
		out = append(out, c.Type)
	}
	return out
}

func served(uid string, gen int64, ns, name string, spec akv1.BindingSpec) binding.Served {
	return binding.Served{Kind: akv1.KindBinding, Namespace: ns, Name: name, UID: k8stypes.UID(uid), Generation: gen, Binding: &spec}
}

func ok4(gen int64) []metav1.Condition {
	at := metav1.NewTime(now.Add(-time.Hour))
	return []metav1.Condition{
		{Type: binding.TypeAccepted, Status: metav1.ConditionTrue, Reason: "OK", ObservedGeneration: gen, LastTransitionTime: at},
		{Type: binding.TypeBackendReachable, Status: metav1.ConditionTrue, Reason: "OK", ObservedGeneration: gen, LastTransitionTime: at},
		{Type: binding.TypeChannelJoined, Status: metav1.ConditionTrue, Reason: "OK", ObservedGeneration: gen, LastTransitionTime: at},
		{Type: binding.TypeReady, Status: metav1.ConditionTrue, Reason: "OK", ObservedGeneration: gen, LastTransitionTime: at},
	}
}

// mustEvaluate is Evaluate for snapshots whose Now is set; a refusal
// fails the test loudly.
func mustEvaluate(s binding.Snapshot) binding.Result {
	r, err := binding.Evaluate(s)
	if err != nil {
		panic(err)
	}
	return r
}

// mustExplain is Explain for snapshots whose Now is set; a refusal fails
// the test loudly.
func mustExplain(s binding.Snapshot) binding.Result {
	r, err := binding.Explain(s)
	if err != nil {
		panic(err)
	}
	return r
}
