package offering_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/offering"
	ot "github.com/condengine/condengine/offering/offeringtest"
)

// A deleting Offering carries Ready and PricingResolved from its stored
// status, redacted again: the loop path the engine wrote while it lived
// (names of its namespace's Offerings, and one another namespace's
// Offering that its namespace requires, shaped like an address and a hex
// secret) comes back unchanged, with nothing to write; text someone else
// put into those messages is hidden, which is a change to write, with
// each condition's status, reason, observedGeneration and
// lastTransitionTime kept.
func TestDeleting_HeldMessagesRedactedAgainNamesKept(t *testing.T) {
	const hex = "0123456789abcdef0123456789abcdef"
	live := []finopsv1.Offering{
		ot.New("shop", "u", ot.Requires(ot.Ref("shop", "x-10.0.0.7"))),
		ot.New("shop", "x-10.0.0.7", ot.Requires(ot.Ref("other", hex))),
		ot.New("other", hex, ot.Requires(ot.Ref("shop", "x-10.0.0.7"))),
	}
	// The first pass writes the loop path on shop/u.
	first := inInputOrder(live, eval(live...))
	u := live[0]
	u.Status = first[0].Status
	loop := conditions.Find(u.Status.Conditions, offering.TypeReady)
	require.NotNil(t, loop)
	require.Equal(t, "requirement loop: shop/u -> shop/x-10.0.0.7 -> other/"+hex+" -> shop/x-10.0.0.7", loop.Message)
	ot.Deleting()(&u)
	u.Generation++

	for _, tc := range []struct {
		name         string
		ready, price string // planted into the stored messages; "" keeps the engine's
		wantReady    string
		wantPrice    string
		write        bool
	}{
		{"EngineMessagesUnchanged", "", "", loop.Message, loop.Message, false},
		{"PlantedSecretsHidden",
			loop.Message + " (dial 10.0.0.9:5432 with password=hunter2)", "rows from https://user:pass@db.internal/x and AKIAIOSFODNN7EXAMPLE",
			loop.Message + " (dial [address] with password=[secret])", "rows from [url] and [secret]", true},
		{"NameNoOneWroteHidden", "requirement loop: shop/u -> shop/y-10.0.0.8", "",
			"requirement loop: shop/u -> shop/y-[address]", loop.Message, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := u
			d.Status.Conditions = append([]metav1.Condition(nil), u.Status.Conditions...)
			for i := range d.Status.Conditions {
				c := &d.Status.Conditions[i]
				switch {
				case c.Type == offering.TypeReady && tc.ready != "":
					c.Message = tc.ready
				case c.Type == offering.TypePricingResolved && tc.price != "":
					c.Message = tc.price
				}
			}
			offs := []finopsv1.Offering{d, live[1], live[2]}
			out := inInputOrder(offs, eval(offs...))[0]
			for _, want := range []struct{ typ, msg string }{{offering.TypeReady, tc.wantReady}, {offering.TypePricingResolved, tc.wantPrice}} {
				c, old := conditions.Find(out.Status.Conditions, want.typ), conditions.Find(d.Status.Conditions, want.typ)
				require.NotNil(t, c, want.typ)
				assert.Equal(t, want.msg, c.Message, want.typ)
				assert.Equal(t, old.Status, c.Status, want.typ)
				assert.Equal(t, old.Reason, c.Reason, want.typ)
				assert.Equal(t, old.ObservedGeneration, c.ObservedGeneration, want.typ)
				assert.True(t, c.LastTransitionTime.Equal(&old.LastTransitionTime), want.typ)
			}
			// Deleting is new on the first deleting pass, so it is always
			// written; once it stands, only a hidden secret makes a write.
			d.Status = out.Status
			offs[0] = d
			for i := range d.Status.Conditions {
				c := &d.Status.Conditions[i]
				if c.Type == offering.TypeReady && tc.ready != "" {
					c.Message = tc.ready
				}
				if c.Type == offering.TypePricingResolved && tc.price != "" {
					c.Message = tc.price
				}
			}
			again := inInputOrder(offs, eval(offs...))[0]
			assert.Equal(t, tc.write, again.Write, "a hidden secret is a change to write")
		})
	}
}
