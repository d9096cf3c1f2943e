package conformance

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/condengine/condengine/binding/bindingtest"
)

// Generate hands out each rule scenario once, at seeds 3, 7, ..., as
// written and without its expectation, and draws every other snapshot.
func TestGenerate_HandsOutEachRuleExampleOnce(t *testing.T) {
	sys := bindingtest.System()
	var ex [][]byte
	for _, id := range []string{"binding/accepted/backend-not-found", "binding/accepted/connection-not-found"} {
		for _, r := range sys.Rules {
			if r.ID != id {
				continue
			}
			// Both references name nothing; the second example adds the
			// backend, so only the connection is missing.
			r.Example = `
				objects:
				  - {"apiVersion": "agentkourier.dev/v1alpha1", "kind": "Binding", "metadata": {"namespace": "a", "name": "b", "uid": "u-b", "generation": 1}, "spec": {"agent": {"backendRef": {"name": "echo"}}, "chat": {"connectionRef": {"name": "gone"}, "channel": "C1"}}}`
			if len(ex) == 1 {
				r.Example += `
				  - {"apiVersion": "agentkourier.dev/v1alpha1", "kind": "AgentBackend", "metadata": {"namespace": "a", "name": "echo", "uid": "u-echo", "generation": 1}, "spec": {"url": "https://echo.a.svc:8443"}}`
			}
			_, text, err := ruleScenario(sys, r)
			require.NoError(t, err)
			ex = append(ex, text)
		}
	}
	require.Len(t, ex, 2)
	examples := func(i int) ([]byte, error) {
		if i < len(ex) {
			return ex[i], nil
		}
		return nil, nil
	}
	none := func(int) ([]byte, error) { return nil, nil }
	for seed := range 12 {
		f, err := generate(sys, seed, examples)
		require.NoError(t, err)
		drawn, err := generate(sys, seed, none)
		require.NoError(t, err)
		switch seed {
		case 3, 7:
			assert.Contains(t, f.Name, fmt.Sprintf("generated binding snapshot, seed %d: binding/accepted/", seed))
			assert.Empty(t, f.Expect)
			assert.Len(t, f.Objects, 1+seed/4)
			reached, err := ReachedRules(sys, f)
			require.NoError(t, err)
			assert.Contains(t, reached, map[int]string{3: "binding/accepted/backend-not-found", 7: "binding/accepted/connection-not-found"}[seed])
		default:
			assert.Equal(t, drawn, f, "seed %d", seed)
			assert.Equal(t, fmt.Sprintf("generated binding snapshot, seed %d", seed), f.Name)
		}
	}
}
