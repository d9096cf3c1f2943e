package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/explain"
)

const parentDeactivated = "../../conformance/scenarios/finops/subscription-parent-deactivated-default-policy.yaml"

// Explain answers the questions a status cannot: why team-a/late is
// refused (the rule, the holder and both creation times, none of which
// the status may show), and why a child ended by its parent is inactive
// (the parent, the parent's end and the policy in force).
func TestExplain_NamesWhatTheStatusCannotShow(t *testing.T) {
	for _, tc := range []struct {
		name, golden string
		args         []string
		wants        []string
	}{
		{"late binding names rule, holder and both creation times", "explain-late.txt",
			[]string{"-f", demoDir + "/binding.yaml", "Binding", "team-a/late"},
			[]string{
				"Accepted=False ChannelConflict",
				"← rule binding/accepted/channel-conflict: ",
				"← Binding team-b/support (uid u-support, generation 1)",
				"metadata.creationTimestamp: 2026-11-30T09:00:00Z",
				"metadata.creationTimestamp: 2026-11-30T09:59:00Z",
				"Ready=False Accepted:ChannelConflict",
				"← derived from Accepted",
			}},
		{"deactivated child names parent and policy", "explain-child.txt",
			[]string{"-f", parentDeactivated, "subscription", "team-a/child"},
			[]string{
				"Active=False ParentDeactivated",
				"← rule subscription/active/parent-deactivated: ",
				"spec.parent.subscriptionRef: team-a/root",
				"← Subscription team-a/root (uid u-root, generation 1)",
				"status.deactivatedAt: 2026-11-20T12:00:00Z",
				"policy: Deactivate (default)",
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := runGolden(t, tc.golden, append([]string{"explain"}, tc.args...)...)
			containsAll(t, out, tc.wants...)
		})
	}
}

func TestExplain_JSONCarriesRuleAndEvidence(t *testing.T) {
	code, out, errs := run(t, "", "explain", "-f", demoDir+"/binding.yaml", "-o", "json", "binding", "late")
	if code != exitOK {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
	var got []explain.Object
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || len(got[0].Conditions) != 2 {
		t.Fatalf("want team-a/late with two conditions, got %s", out)
	}
	acc := got[0].Conditions[0]
	if acc.Rule != "binding/accepted/channel-conflict" || acc.Sentence == "" {
		t.Fatalf("Accepted explained as %+v", acc)
	}
	holder := false
	for _, ev := range acc.Evidence {
		holder = holder || ev.Object.Namespace == "team-b" && ev.Object.Name == "support"
	}
	if !holder {
		t.Fatalf("the holder is missing from the evidence: %+v", acc.Evidence)
	}
}

// Every object of both demo worlds is explained, each condition by a rule
// of the table.
func TestExplain_DemoWorldsEveryConditionHasATableRule(t *testing.T) {
	ids := map[string]bool{}
	for _, r := range conformance.Rules(seedCmd.Systems...) {
		ids[r.ID] = true
	}
	for _, f := range []string{demoDir + "/binding.yaml", demoDir + "/finops.yaml"} {
		code, out, errs := run(t, "", "explain", "-f", f, "-o", "json")
		if code != exitOK {
			t.Fatalf("%s: code %d, stderr %q", f, code, errs)
		}
		var got []explain.Object
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		if len(got) < 3 {
			t.Fatalf("%s: %d objects explained", f, len(got))
		}
		for _, x := range got {
			for _, c := range x.Conditions {
				if !ids[c.Rule] || len(c.Evidence) == 0 {
					t.Errorf("%s %s/%s %s: rule %q, %d evidence", x.Kind, x.Namespace, x.Name, c.Type, c.Rule, len(c.Evidence))
				}
			}
		}
	}
}

func TestExplain_ManifestStreamIsExplainedToo(t *testing.T) {
	for _, f := range []string{"/eval/list.yaml", "/eval/finops.yaml"} {
		code, out, errs := run(t, "", "explain", "-f", cliData+f, "-now", fixedNow)
		if code != exitOK || !strings.Contains(out, "← rule ") || strings.Contains(out, "← rule :") {
			t.Fatalf("%s: code %d, stderr %q, stdout:\n%s", f, code, errs, out)
		}
	}
}

func TestExplain_UsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"explain"},
		{"explain", "-f", demoDir + "/binding.yaml", "-o", "yaml"},
		{"explain", "-f", demoDir + "/binding.yaml", "Pod"},
		{"explain", "-f", demoDir + "/binding.yaml", "Binding", "a", "b"},
		{"explain", "-rules", "-f", demoDir + "/binding.yaml"},
		{"explain", "-f", demoDir + "/binding.yaml", "-out", "x.md"},
	} {
		if code, _, errs := run(t, "", args...); code != exitUsage || errs == "" {
			t.Errorf("%q: code %d, stderr %q", args, code, errs)
		}
	}
}

func TestExplain_UnknownObjectFails(t *testing.T) {
	code, _, errs := run(t, "", "explain", "-f", demoDir+"/binding.yaml", "Binding", "team-a/nope")
	if code != exitFail || !strings.Contains(errs, "no Binding team-a/nope") {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
}

// An input with nothing the engine evaluates is said to be so, instead
// of an empty answer.
func TestExplain_NoEvaluatedKindSaysSo(t *testing.T) {
	code, out, errs := run(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, namespace: a}\n", "explain", "-f", "-")
	if code == exitOK || out != "" || !strings.Contains(errs, "nothing to explain in stdin") {
		t.Fatalf("code %d, stdout %q, stderr %q", code, out, errs)
	}
}
