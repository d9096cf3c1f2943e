package binding_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/condengine/condengine/binding"
	bt "github.com/condengine/condengine/binding/bindingtest"
)

// A holder in the Binding's own namespace is named as written, whatever
// its name looks like; one in another namespace is still never named.
func TestAccepted_ChannelConflict_HolderNameShownAsWrittenOnlyInTheSameNamespace(t *testing.T) {
	const other = "spec.chat.channel: channel C1 is already bound by a Binding in another namespace"
	for _, tc := range []struct{ ns, holder, want string }{
		{"team-a", "0123456789abcdef0123456789abcdef", "spec.chat.channel: channel C1 is already bound by Binding team-a/0123456789abcdef0123456789abcdef"},
		{"team-a", "x-10.0.0.7", "spec.chat.channel: channel C1 is already bound by Binding team-a/x-10.0.0.7"},
		{"team-b", "x-10.0.0.7", other},
		{"team-b", "0123456789abcdef0123456789abcdef", other},
	} {
		hub := []bt.BindingOption{bt.Backend("shared", "hub"), bt.Connection("shared", "hub-slack")}
		s := world(bt.NewBinding(tc.ns, tc.holder, append(hub, bt.Created(bt.Epoch()))...),
			bt.NewBinding("team-a", "late", append(hub, bt.Created(bt.Epoch().Add(time.Hour)))...))
		_, m := evaluate(t, s)
		late := get(t, m, "team-a/late")
		assert.Equal(t, tc.want, cond(t, late, binding.TypeAccepted).Message, tc.holder)
		for _, c := range late.Conditions {
			if tc.ns != "team-a" {
				assert.NotContains(t, c.Message, tc.holder, c.Type)
			}
		}
	}
}
