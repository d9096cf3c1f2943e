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
	offs := []finopsv1.Offering{
		ot.New("shop", "u", ot.Requires(ot.Ref("shop", "x-10.0.0.7"))),
		ot.New("shop", "x-10.0.0.7", ot.Requires(ot.Ref("shop", hex))),
		ot.New("shop", hex, ot.Requires(ot.Ref("shop", "x-10.0.0.7"))),
	}
	reason, msg := readyOf(t, offs, eval(offs...), "shop/u")
	assert.Equal(t, offering.ReasonCircularDependencyDetected, reason)
	assert.Equal(t, "requirement loop: shop/u -> shop/x-10.0.0.7 -> shop/"+hex+" -> shop/x-10.0.0.7", msg)
}

func TestCircularDependency_UnnamedOtherNamespaceStillHidden(t *testing.T) {
	offs := []finopsv1.Offering{
		ot.New("shop", "u", ot.Requires(ot.Ref("other", "x-10.0.0.7"))),
		ot.New("other", "x-10.0.0.7", ot.Requires(ot.Ref("other", "y-10.0.0.8"))),
		ot.New("other", "y-10.0.0.8", ot.Requires(ot.Ref("other", "x-10.0.0.7"))),
	}
	reason, msg := readyOf(t, offs, eval(offs...), "shop/u")
	assert.Equal(t, offering.ReasonCircularDependencyDetected, reason)
	assert.Contains(t, msg, "other/x-10.0.0.7", "named by an Offering of shop")
	assert.NotContains(t, msg, "y-10.0.0.8", "named only in another namespace")
}
