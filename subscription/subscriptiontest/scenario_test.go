package subscriptiontest_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/subscription"
	st "github.com/condengine/condengine/subscription/subscriptiontest"
)

// A collection block becomes the run it describes; a result whose
// subscription or source the format does not allow is refused by its
// path in the file.
func TestCollection(t *testing.T) {
	col, err := st.Collection(nil)
	require.NoError(t, err)
	assert.Nil(t, col, "no block, no run")

	hour := metav1.NewTime(time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC))
	col, err = st.Collection(&scenario.Collection{ScheduledHour: hour, Results: []scenario.CollectionResult{
		{Subscription: "team-a/web", Source: "db"}, {Subscription: "team-b/api", Source: "error"}}})
	require.NoError(t, err)
	assert.Equal(t, &subscription.Collection{ScheduledHour: hour.Time, Results: []subscription.CollectionResult{
		{Subscription: finopsv1.Reference{Namespace: "team-a", Name: "web"}, Source: subscription.SourceDB},
		{Subscription: finopsv1.Reference{Namespace: "team-b", Name: "api"}, Source: subscription.SourceError}}}, col)

	for name, tc := range map[string]struct {
		r    scenario.CollectionResult
		want string
	}{
		"NoNamespace":   {scenario.CollectionResult{Subscription: "web", Source: "db"}, `collection.results[1].subscription: "web" is not namespace/name`},
		"EmptyName":     {scenario.CollectionResult{Subscription: "team-a/", Source: "db"}, `collection.results[1].subscription: "team-a/" is not namespace/name`},
		"UnknownSource": {scenario.CollectionResult{Subscription: "team-a/web", Source: "guess"}, `collection.results[1].source: "guess" is not db, calculator or error`},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := st.Collection(&scenario.Collection{ScheduledHour: hour, Results: []scenario.CollectionResult{
				{Subscription: "team-a/ok", Source: "calculator"}, tc.r}})
			assert.EqualError(t, err, tc.want)
		})
	}
}
