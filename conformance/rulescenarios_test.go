package conformance_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/condengine/condengine/binding/bindingtest"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/finops/finopstest"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

// The corpus holds exactly the scenarios the rules' examples make, as
// they make them; -update (go generate ./conformance) rewrites them and
// removes those of rules that no longer have an example.
func TestRuleScenarios_AreCurrent(t *testing.T) {
	want, err := conformance.RuleScenarios(conformance.SeedSystems()...)
	require.NoError(t, err)
	have, err := filepath.Glob("scenarios/*/rule-*.yaml")
	require.NoError(t, err)
	if *update {
		for _, p := range have {
			if _, ok := want[strings.TrimPrefix(p, "scenarios/")]; !ok {
				require.NoError(t, os.Remove(p))
			}
		}
		for p, text := range want {
			require.NoError(t, os.WriteFile(filepath.Join("scenarios", p), text, 0o644))
		}
		return
	}
	for _, p := range have {
		if _, ok := want[strings.TrimPrefix(p, "scenarios/")]; !ok {
			t.Errorf("%s was written from an example no rule has now: run go generate ./conformance", p)
		}
	}
	for p, text := range want {
		got, err := os.ReadFile(filepath.Join("scenarios", p))
		if err != nil || string(got) != string(text) {
			t.Errorf("scenarios/%s is missing or stale: run go generate ./conformance", p)
		}
	}
}

// An example, one per evaluating kind, becomes a scenario that names the
// rule, reads as written, passes against the engine and is decided by
// the rule; its expectation comes from the rule, so an example that does
// not make the rule fire fails the scenario.
func TestRuleScenario_ShowsTheRuleInEveryKind(t *testing.T) {
	for _, tc := range []struct {
		sys           *system.System
		rule, example string
		cause, cured  string // a part of the example that makes the rule fire, and one that does not
	}{
		{bindingtest.System(), "binding/accepted/backend-not-found", `
			objects:
			  - {"apiVersion": "agentkourier.dev/v1alpha1", "kind": "ChatConnection", "metadata": {"namespace": "team-a", "name": "slack", "uid": "u-slack", "generation": 1}, "spec": {"platform": "slack", "tokenSecretRef": {"name": "slack-token", "key": "token"}}}
			  - {"apiVersion": "agentkourier.dev/v1alpha1", "kind": "Binding", "metadata": {"namespace": "team-a", "name": "chat", "uid": "u-chat", "generation": 1}, "spec": {"agent": {"backendRef": {"name": "ghost"}}, "chat": {"connectionRef": {"name": "slack"}, "channel": "C1"}}}
			  - {"apiVersion": "agentkourier.dev/v1alpha1", "kind": "AgentBackend", "metadata": {"namespace": "team-a", "name": "echo", "uid": "u-echo", "generation": 1}, "spec": {"url": "https://echo.team-a.svc:8443"}}
			`, `"ghost"`, `"echo"`},
		{finopstest.System(), "pricebook/ready/parse-failed", `
			objects:
			  - {"apiVersion": "finops.stakater.com/v1alpha1", "kind": "PriceBook", "metadata": {"namespace": "finops", "name": "sci", "uid": "u-sci", "generation": 1}, "spec": {"currency": "EUR", "valuationMode": "currency", "rates": {"cpuHour": "3e-2"}}}
			`, `"3e-2"`, `"0.03"`},
		{finopstest.System(), "offering/checks/required-offering-not-found", `
			now: "2026-11-30T12:00:00Z"
			objects:
			  - {"apiVersion": "finops.stakater.com/v1alpha1", "kind": "Offering", "metadata": {"namespace": "shop", "name": "addon", "uid": "u-addon", "generation": 1}, "spec": {"pricing": {}, "compatibility": {"requiredOfferings": [{"name": "base", "namespace": "shop"}]}}}
			`, `"requiredOfferings": [{"name": "base", "namespace": "shop"}]`, `"requiredOfferings": []`},
		{finopstest.System(), "subscription/ready/target-is-self", `
			objects:
			  - {"apiVersion": "finops.stakater.com/v1alpha1", "kind": "Offering", "metadata": {"namespace": "shop", "name": "base", "uid": "o-base", "generation": 1}, "spec": {"pricing": {}}, "status": {"ready": "True"}}
			  - {"apiVersion": "finops.stakater.com/v1alpha1", "kind": "Subscription", "metadata": {"namespace": "team-a", "name": "acme", "uid": "u-acme", "generation": 1}, "spec": {"offeringRef": {"name": "base", "namespace": "shop"}, "lifecycle": {"targetRef": {"apiVersion": "finops.stakater.com/v1alpha1", "kind": "Subscription", "namespace": "team-a", "name": "acme"}}}}
			`, `"name": "acme"}}}}`, `"name": "other"}}}}`},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			r := rule(t, tc.rule).WithExample(tc.example)
			p, text, err := conformance.RuleScenario(tc.sys, r)
			require.NoError(t, err)
			sys := strings.Split(p, "/")[0]
			assert.Equal(t, tc.sys.Name, sys, "the file is in its system's directory")
			assert.Equal(t, "rule-"+strings.ReplaceAll(tc.rule, "/", "-")+".yaml", strings.TrimPrefix(p, sys+"/"))
			assert.Contains(t, string(text), "\nname: \""+tc.rule+": "+r.Sentence+"\"\n")
			assert.Contains(t, string(text), "\nobjects:\n  - {", "the example is kept as written, its indentation removed")
			assert.NotContains(t, string(text), "\n\n")
			f, err := scenario.Parse(text)
			require.NoError(t, err)
			require.Len(t, f.Expect, 1)
			assert.Equal(t, r.Kind, f.Expect[0].Kind)
			assert.Equal(t, []scenario.ExpectedCondition{{Type: r.Types[0], Status: string(r.Writes[0].Status), Reason: r.Writes[0].Reason}},
				f.Expect[0].ConditionsInclude)
			outs, err := conformance.Runners()[sys](f)
			require.NoError(t, err)
			assert.Empty(t, f.Check(outs))
			reached, err := conformance.ReachedRules(tc.sys, f)
			require.NoError(t, err)
			assert.Contains(t, reached, tc.rule)

			// The same example with its cause taken out: the scenario
			// expects what the rule declares, and the engine no longer
			// writes it.
			r.Example = strings.Replace(tc.example, tc.cause, tc.cured, 1)
			require.NotEqual(t, tc.example, r.Example)
			_, text, err = conformance.RuleScenario(tc.sys, r)
			require.NoError(t, err)
			f, err = scenario.Parse(text)
			require.NoError(t, err)
			outs, err = conformance.Runners()[sys](f)
			require.NoError(t, err)
			assert.Contains(t, f.Check(outs), "conditionsInclude[0]")
		})
	}
}

// An example the generator cannot show is refused, naming the rule.
func TestRuleScenario_RefusesWhatItCannotShow(t *testing.T) {
	sys := bindingtest.System()
	shared := conditions.SharedRules()[0]
	shared.Example = "objects: []"
	_, _, err := conformance.RuleScenario(sys, shared)
	assert.ErrorContains(t, err, "rule "+shared.ID+": example: kind")

	r := rule(t, "binding/accepted/backend-not-found")
	r.Example = "objects: []"
	_, _, err = conformance.RuleScenario(sys, r)
	assert.ErrorContains(t, err, "no object of kind Binding")

	r.Example = "objcts: []"
	_, _, err = conformance.RuleScenario(sys, r)
	assert.ErrorContains(t, err, "objcts")

	// A rule of another system's kind is not shown as this one's.
	_, _, err = conformance.RuleScenario(finopstest.System(), r)
	assert.ErrorContains(t, err, `kind "Binding" is not one system finops evaluates`)
}

func rule(t *testing.T, id string) conditions.Rule {
	t.Helper()
	rules := conformance.Rules(conformance.SeedSystems()...)
	i := slices.IndexFunc(rules, func(r conditions.Rule) bool { return r.ID == id })
	require.GreaterOrEqual(t, i, 0, id)
	return rules[i]
}
