package subscription_test

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/subscription"
	st "github.com/condengine/condengine/subscription/subscriptiontest"
)

// The one text a Subscription's message takes from another object is a
// required Offering of its bound Offering (which may live in another
// namespace). It names the Offering to subscribe a relative to, so it is
// shown as written even where it looks like an address; an entry not
// shaped like a name is free text and is redacted. The Subscription that
// covers the requirement in another family, in another namespace, is
// never named.
func TestCompatibilityGate_RequiredOfferingNamedAsWrittenAndNothingElse(t *testing.T) {
	const suffix = " not covered by an active subscription in the family"
	for _, tc := range []struct {
		name     string
		required finopsv1.Reference
		active   bool
		want     string
	}{
		{"Held", finopsv1.Reference{Namespace: "shop", Name: "db-10.0.0.7"}, false,
			"False CompatibilityRequirementNotMet required offering shop/db-10.0.0.7" + suffix},
		{"Ended", finopsv1.Reference{Namespace: "vendor", Name: "0123456789abcdef0123456789abcdef"}, true,
			"False CompatibilityRequirementNotMet required offering vendor/0123456789abcdef0123456789abcdef" + suffix},
		{"FreeTextRedacted", finopsv1.Reference{Namespace: "shop", Name: "db at 10.0.0.7:5432"}, false,
			"False CompatibilityRequirementNotMet required offering shop/db at [address]" + suffix},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opts []st.Option
			typ := subscription.TypeReady
			opts = append(opts, st.Offering("shop", "app"))
			if tc.active {
				opts = append(opts, st.Active(earlier, "u-team-a-x"))
				typ = subscription.TypeActive
			}
			snap := subscription.Snapshot{Now: now,
				Offerings: []finopsv1.Offering{
					st.ReadyOffering("shop", "app", tc.required),
					st.ReadyOffering(tc.required.Namespace, tc.required.Name),
				},
				Subscriptions: []finopsv1.Subscription{
					st.New("team-a", "x", opts...),
					// A provider of the required Offering in another
					// namespace and another family: no cover, never named.
					st.New("team-b", "provider-b", st.Offering(tc.required.Namespace, tc.required.Name),
						st.Active(earlier, "u-team-b-provider-b")),
				}}
			o := outcome(t, evaluate(snap), "team-a", "x")
			c := conditions.Find(o.Status.Conditions, typ)
			require.NotNil(t, c)
			assert.Equal(t, tc.want, string(c.Status)+" "+c.Reason+" "+c.Message)
			for _, c := range o.Status.Conditions {
				assert.NotContains(t, c.Message, "team-b", c.Type)
				assert.NotContains(t, c.Message, "provider-b", c.Type)
			}
		})
	}
}

// nameInMessage finds the namespace/name pairs of the generated worlds'
// namespaces in a message.
var nameInMessage = regexp.MustCompile(`\b(?:team-a|team-b|shop)/[a-z0-9][a-z0-9.-]*`)

// A Subscription's messages name only what its own spec names (itself,
// its Offering, its parent, its target) and the requirements of its bound
// Offering: never another Subscription of its family or of another
// namespace, such as an ancestor above its parent or a provider that
// covers a requirement.
func TestProperty_MessagesNameOnlyTheSpecsReferencesAndTheRequirements(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		snap := settled(t)
		offs := map[finopsv1.Reference]*finopsv1.Offering{}
		for i := range snap.Offerings {
			offs[snap.Offerings[i].Key()] = &snap.Offerings[i]
		}
		subs := map[finopsv1.Reference]*finopsv1.Subscription{}
		for i := range snap.Subscriptions {
			subs[snap.Subscriptions[i].Key()] = &snap.Subscriptions[i]
		}
		for _, o := range evaluate(snap).Subscriptions {
			in := subs[finopsv1.Reference{Namespace: o.Namespace, Name: o.Name}]
			allowed := map[string]bool{in.Namespace + "/" + in.Name: true, in.Spec.OfferingRef.String(): true}
			if p := in.Spec.Parent; p != nil {
				allowed[p.SubscriptionRef.String()] = true
			}
			if l := in.Spec.Lifecycle; l != nil && l.TargetRef != nil {
				allowed[l.TargetRef.Namespace+"/"+l.TargetRef.Name] = true
			}
			if off := offs[in.Spec.OfferingRef]; off != nil && off.Spec.Compatibility != nil {
				for _, r := range off.Spec.Compatibility.RequiredOfferings {
					allowed[r.String()] = true
				}
			}
			for _, c := range o.Status.Conditions {
				for _, n := range nameInMessage.FindAllString(c.Message, -1) {
					if !allowed[n] {
						t.Fatalf("%s/%s %s names %s, which its spec and its Offering's requirements do not: %q",
							o.Namespace, o.Name, c.Type, n, c.Message)
					}
				}
			}
		}
	})
}
