package subscription_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/subscription"
)

// seedReasons is the seed's table, row by row: type, status, reason and
// whether the state is one the Subscription never leaves.
var seedReasons = []struct {
	typ, status, reason string
	terminal            bool
}{
	{"Ready", "False", "OfferingNotFound", false},
	{"Ready", "False", "OfferingNotReady", false},
	{"Ready", "False", "ParentSubscriptionNotFound", false},
	{"Ready", "False", "ParentSubscriptionNotReady", false},
	{"Ready", "False", "ParentSubscriptionDeactivated", false},
	{"Ready", "False", "CircularDependencyDetected", false},
	{"Ready", "False", "CompatibilityRequirementNotMet", false},
	{"Ready", "False", "TargetNotFound", false},
	{"Ready", "False", "TargetIsSelfReference", false},
	{"Ready", "False", "ValidationError", false},
	{"Ready", "True", "ActivationSucceeded", false},
	{"Ready", "True", "Orphaned", false},
	{"Ready", "False", "ValidationSucceeded", true},
	{"Active", "True", "ActivationSucceeded", false},
	{"Active", "True", "Orphaned", false},
	{"Active", "False", "ParentDeactivated", true},
	{"Active", "False", "CompatibilityRequirementNotMet", true},
	{"Active", "False", "TargetNotFound", true},
	{"Active", "False", "MarkedForDeletion", true},
	{"Deleting", "False", "WaitingForCollectionJob", true},
	{"CostsResolved", "True", "FromDB", false},
	{"CostsResolved", "True", "FromCalculator", false},
}

func TestVocabulary_EverySeedReasonWithItsTerminalFlag(t *testing.T) {
	n := 0
	for _, typ := range subscription.Vocabulary.Types() {
		n += len(typ.Reasons)
	}
	assert.Equal(t, len(seedReasons), n, "the vocabulary holds exactly the seed's pairs")
	for _, r := range seedReasons {
		got, ok := subscription.Vocabulary.Lookup(r.typ, metav1.ConditionStatus(r.status), r.reason)
		if assert.True(t, ok, "%s %s %s missing", r.typ, r.status, r.reason) {
			assert.Equal(t, r.terminal, got.Terminal, "%s %s %s terminal", r.typ, r.status, r.reason)
			assert.NotEmpty(t, got.Meaning)
		}
	}
}

func TestVocabulary_TypesInTheirFixedOrder(t *testing.T) {
	var names []string
	for _, typ := range subscription.Vocabulary.Types() {
		names = append(names, typ.Name)
	}
	assert.Equal(t, []string{"Ready", "Active", "Deleting", "CostsResolved"}, names)
}

// TestScenarios_CoverEveryReason keeps the corpus honest: each pair of the
// vocabulary is expected by at least one scenario file.
func TestScenarios_CoverEveryReason(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(scenarioDir, "*.yaml"))
	require.NoError(t, err)
	seen := map[[3]string]bool{}
	for _, p := range files {
		f, err := scenario.Load(p)
		require.NoError(t, err)
		for _, e := range f.Expect {
			if e.Kind != finopsv1.KindSubscription || e.Conditions == nil {
				continue
			}
			for _, c := range *e.Conditions {
				seen[[3]string{c.Type, c.Status, c.Reason}] = true
			}
		}
	}
	for _, r := range seedReasons {
		assert.True(t, seen[[3]string{r.typ, r.status, r.reason}], "no scenario expects %s %s %s", r.typ, r.status, r.reason)
	}
}
