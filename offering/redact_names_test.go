package offering_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/offering"
	ot "github.com/condengine/condengine/offering/offeringtest"
)

// Offerings the reader may see are named in a loop path as written, even
// when a name looks like an address or a hex secret; one of another
// namespace that no Offering of the reader's namespace names stays hidden.
func TestCircularDependency_NamesShownAsWritten(t *testing.T) {
	const hex = "0123456789abcdef0123456789abcdef"
	loop := func(ns, first, second string) []finopsv1.Offering {
		return []finopsv1.Offering{
			ot.New("shop", "u", ot.Requires(ot.Ref(ns, first))),
			ot.New(ns, first, ot.Requires(ot.Ref(ns, second))), ot.New(ns, second, ot.Requires(ot.Ref(ns, first))),
		}
	}
	for _, tc := range []struct {
		name string
		offs []finopsv1.Offering
		want string
	}{
		{"SameNamespace", loop("shop", "x-10.0.0.7", hex),
			"requirement loop: shop/u -> shop/x-10.0.0.7 -> shop/" + hex + " -> shop/x-10.0.0.7"},
		{"OtherNamespaceNamedOnlyWhereWrittenHere", loop("other", "x-10.0.0.7", "y-10.0.0.8"),
			"requirement loop: shop/u -> other/x-10.0.0.7 -> (an offering in another namespace) -> other/x-10.0.0.7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reason, msg := readyOf(t, tc.offs, eval(tc.offs...), "shop/u")
			assert.Equal(t, string(offering.ReasonCircularDependencyDetected), reason)
			assert.Equal(t, tc.want, msg)
		})
	}
}
