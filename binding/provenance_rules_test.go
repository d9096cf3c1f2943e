package binding_test

import (
	"strings"
	"testing"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/bindingtest"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/scenario"
)

// flatFacts renders a provenance as "Kind ns/name: field=value" lines.
func flatFacts(p conditions.Provenance) string {
	var b strings.Builder
	for _, ev := range p.Evidence {
		b.WriteString(ev.Object.String() + "\n")
		for _, f := range ev.Facts {
			b.WriteString(ev.Object.String() + ": " + f.Field + "=" + f.Value + "\n")
		}
	}
	return b.String()
}

// Each rule's evidence, named, on a scenario of the corpus.
func TestExplain_EvidencePerRule(t *testing.T) {
	for _, tc := range []struct {
		file, binding, typ, rule, from string
		facts                          []string
	}{
		{"accepted-channel-conflict-other-namespace", "late", binding.TypeAccepted, "binding/accepted/channel-conflict", "", []string{
			"Binding team-canary/canary-holder: holds=channel C1 on ChatConnection shared/slack",
			"Binding team-canary/canary-holder: metadata.creationTimestamp=2026-11-30T08:00:00Z",
			"Binding team-a/late: metadata.creationTimestamp=2026-11-30T09:30:00Z",
		}},
		{"accepted-backend-rejected-other-namespace", "chat", binding.TypeAccepted, "binding/accepted/backend-rejected", "", []string{
			"AgentBackend shared/hub: problem=spec.authSecretRef.key: required",
		}},
		{"served-refused-edit-backend-not-found", "chat", binding.TypeAccepted, "binding/accepted/backend-not-found", "", []string{
			"Binding team-a/chat: spec.agent.backendRef=team-a/ghost (not found)",
			"Binding team-a/chat: memory.servedGeneration=2",
		}},
		{"probe-backend-unreachable", "b0", binding.TypeBackendReachable, "binding/backend-reachable/probe-result", "", []string{
			"Binding team-a/b0: probe.backend.generation=1",
			"Binding team-a/b0: probe.backend.result=card fetch got no answer: dns",
			"AgentBackend team-a/echo: spec.url=https://echo.team-a.svc:8443",
		}},
		{"failover-pending-never-overwrites-good", "chat", binding.TypeChannelJoined, "binding/channel-joined/kept-across-failover", "", []string{
			"Binding team-a/chat: status.conditions[ChannelJoined].reason=OK",
			"Binding team-a/chat: status.conditions[ChannelJoined].lastTransitionTime=2026-11-30T09:10:00Z",
			"Binding team-a/chat: metadata.creationTimestamp=2026-11-30T09:00:00Z",
		}},
		{"probe-backend-unreachable", "b0", binding.TypeReady, "binding/ready/from-probe-condition", binding.TypeBackendReachable, []string{
			"Binding team-a/b0: status.conditions[BackendReachable]=Unreachable",
		}},
		{"memory-ahead-of-snapshot-keeps-conditions", "chat", binding.TypeReady, "binding/stale-memory", "", []string{
			"Binding team-a/chat: metadata.generation=2",
			"Binding team-a/chat: memory.servedGeneration=3",
		}},
	} {
		t.Run(tc.file+"/"+tc.typ, func(t *testing.T) {
			f, err := scenario.Load("../conformance/scenarios/binding/" + tc.file + ".yaml")
			if err != nil {
				t.Fatal(err)
			}
			s, err := bindingtest.Snapshot(f)
			if err != nil {
				t.Fatal(err)
			}
			var got *conditions.Provenance
			for _, r := range mustExplain(s).Bindings {
				for i := range r.Provenance {
					if r.Name == tc.binding && r.Provenance[i].Type == tc.typ {
						got = &r.Provenance[i]
					}
				}
			}
			if got == nil {
				t.Fatalf("no %s on %s", tc.typ, tc.binding)
			}
			if got.Rule != tc.rule || got.From != tc.from {
				t.Fatalf("rule %q from %q, want %q from %q", got.Rule, got.From, tc.rule, tc.from)
			}
			flat := flatFacts(*got)
			for _, want := range tc.facts {
				if !strings.Contains(flat, want+"\n") {
					t.Errorf("evidence lacks %q:\n%s", want, flat)
				}
			}
		})
	}
}
