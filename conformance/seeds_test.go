package conformance_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/system"
)

// The seed systems are valid together: no name, kind or kubectl name of
// one stands for another's.
func TestSeedSystems_AreValidTogether(t *testing.T) {
	seeds := conformance.SeedSystems()
	require.NoError(t, system.Validate(seeds...))
	assert.Equal(t, "binding", seeds[0].Name)
	assert.Equal(t, "finops", seeds[1].Name)
	assert.NotSame(t, seeds[0], conformance.SeedSystems()[0], "each call returns new values")
}

// The seed kinds with conditions answer to the names kubectl users type,
// as `condengine explain` and the kubectl plugin read them.
func TestResolveKind_SeedKinds(t *testing.T) {
	seeds := conformance.SeedSystems()
	for name, want := range map[string]string{
		"Binding": "Binding", "binding": "Binding", "bindings": "Binding", "akbinding": "Binding", "AKBinding": "Binding", "akbindings": "Binding",
		"bindings.agentkourier.dev": "Binding", "akbinding.agentkourier.dev": "Binding",
		"pricebook": "PriceBook", "PriceBooks": "PriceBook", "pricebooks.finops.stakater.com": "PriceBook",
		"offering": "Offering", "offerings": "Offering",
		"Subscription": "Subscription", "subscriptions": "Subscription",
	} {
		got, err := system.ResolveKind(name, seeds...)
		if assert.NoError(t, err, name) {
			assert.Equal(t, want, got.Kind, name)
		}
	}
	for name, msg := range map[string]string{
		"bindng":                       `unknown kind "bindng" (did you mean "binding"?); kinds with conditions: Binding, PriceBook, Offering, Subscription`,
		"Subscriptoins":                `unknown kind "Subscriptoins" (did you mean "subscriptions"?)`,
		"bindings.finops.stakater.com": `unknown kind "bindings.finops.stakater.com" (bindings is in the API group agentkourier.dev)`,
		"AgentBackend":                 `unknown kind "AgentBackend"; kinds with conditions: Binding, PriceBook, Offering, Subscription`,
		"":                             `unknown kind ""; kinds with conditions`,
	} {
		_, err := system.ResolveKind(name, seeds...)
		if assert.Error(t, err, name) {
			assert.Contains(t, err.Error(), msg, name)
		}
	}
}

// A run of the default length (100 snapshots from seed 0) of each seed
// system reaches every decision outcome a snapshot can reach, and every
// rule but those the system says such a run may miss: the generators
// draw unchanged statuses, held writes and their retries, released
// finalizers, and every reason not to write.
func TestDefaultRun_ReachesEveryDecision(t *testing.T) {
	for _, sys := range conformance.SeedSystems() {
		res, err := conformance.Run(sys, conformance.Reference(sys), conformance.Options{})
		require.NoError(t, err)
		require.Nil(t, res.Counterexample)
		require.Equal(t, 100, res.Runs)
		for _, d := range conformance.SystemDecisions(sys) {
			assert.Positive(t, res.Decisions[d], "%s: decision %s never reached\n%s", sys.Name, d, conformance.DecisionReport(sys, res.Decisions))
		}
		for _, id := range conformance.SystemRules(sys) {
			if _, rare := sys.Rare[id]; !rare {
				assert.Positive(t, res.Reached[id], "%s: rule %s never reached", sys.Name, id)
			}
		}
	}
}
