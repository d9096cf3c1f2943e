package explain

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

func TestKind(t *testing.T) {
	for name, want := range map[string]string{
		"Binding": "Binding", "binding": "Binding", "bindings": "Binding", "akbinding": "Binding", "AKBinding": "Binding",
		"bindings.agentkourier.dev": "Binding", "akbinding.agentkourier.dev": "Binding",
		"pricebook": "PriceBook", "PriceBooks": "PriceBook", "pricebooks.finops.stakater.com": "PriceBook",
		"offering": "Offering", "offerings": "Offering",
		"Subscription": "Subscription", "subscriptions": "Subscription",
	} {
		got, err := Kind(name)
		if assert.NoError(t, err, name) {
			assert.Equal(t, want, got, name)
		}
	}
	for name, msg := range map[string]string{
		"bindng":                       `unknown kind "bindng" (did you mean "binding"?); kinds with conditions: Binding, PriceBook, Offering, Subscription`,
		"Subscriptoins":                `unknown kind "Subscriptoins" (did you mean "subscriptions"?)`,
		"bindings.finops.stakater.com": `unknown kind "bindings.finops.stakater.com" (bindings is in the API group agentkourier.dev)`,
		"AgentBackend":                 `unknown kind "AgentBackend"; kinds with conditions: Binding, PriceBook, Offering, Subscription`,
		"":                             `unknown kind ""; kinds with conditions`,
	} {
		_, err := Kind(name)
		if assert.Error(t, err, name) {
			assert.Contains(t, err.Error(), msg, name)
		}
	}
}

func TestNearest(t *testing.T) {
	verbs := []string{"demo", "eval", "check", "vocab", "explain", "conform", "reference"}
	for word, want := range map[string]string{
		"evla": "eval", "chek": "check", "explian": "explain", "conforms": "conform",
		"refrence": "reference", "demo": "demo", "apply": "", "x": "", "": "",
	} {
		assert.Equal(t, want, Nearest(word, verbs), word)
	}
	// Ties go to the first candidate given.
	assert.Equal(t, "ab", Nearest("aa", []string{"ab", "ba"}))
	assert.Equal(t, "ba", Nearest("aa", []string{"ba", "ab"}))
}

// The names each kind answers to are the ones its CRD declares: the
// singular, the plural and every short name.
func TestKind_NamesAreTheCRDs(t *testing.T) {
	files, err := filepath.Glob("../config/crd/*.yaml")
	require.NoError(t, err)
	seen := 0
	for _, p := range files {
		raw, err := os.ReadFile(p)
		require.NoError(t, err)
		var crd struct {
			Spec struct {
				Group string
				Names struct {
					Kind, Singular, Plural string
					ShortNames             []string
				}
			}
		}
		require.NoError(t, yaml.Unmarshal(raw, &crd), p)
		n := crd.Spec.Names
		i := slices.IndexFunc(kinds, func(k struct {
			kind, group string
			names       []string
		}) bool {
			return k.kind == n.Kind
		})
		if i < 0 {
			continue
		}
		seen++
		k := kinds[i]
		assert.Equal(t, crd.Spec.Group, k.group, p)
		singular := n.Singular
		if singular == "" {
			singular = strings.ToLower(n.Kind)
		}
		for _, name := range append([]string{singular, n.Plural}, n.ShortNames...) {
			assert.Contains(t, k.names, name, "%s: %s", p, name)
		}
	}
	assert.Equal(t, len(kinds), seen, "a kind of the table has no CRD under config/crd")
}
