package binding_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	bt "github.com/condengine/condengine/binding/bindingtest"
)

// A holder in the Binding's own namespace is named as written, whatever
// its name looks like; one in another namespace is still never named.
func TestAccepted_ChannelConflict_SameNamespaceHolderNameShownAsWritten(t *testing.T) {
	for _, holder := range []string{"0123456789abcdef0123456789abcdef", "x-10.0.0.7"} {
		s := world(bt.NewBinding("team-a", "late", bt.Created(bt.Epoch().Add(time.Hour))), bt.NewBinding("team-a", holder))
		_, m := evaluate(t, s)
		late := get(t, m, "team-a/late")
		assert.Equal(t, "spec.chat.channel: channel C1 is already bound by Binding team-a/"+holder,
			cond(t, late, binding.TypeAccepted).Message)
		assert.Contains(t, cond(t, late, binding.TypeReady).Message, "team-a/"+holder)
	}
}

func TestAccepted_ChannelConflict_OtherNamespaceHolderStillHidden(t *testing.T) {
	onHub := func(ns, name string, created time.Time) akv1.Binding {
		return bt.NewBinding(ns, name, bt.Backend("shared", "hub"), bt.Connection("shared", "hub-slack"), bt.Created(created))
	}
	s := world(onHub("team-b", "x-10.0.0.7", bt.Epoch()), onHub("team-a", "late", bt.Epoch().Add(time.Hour)))
	_, m := evaluate(t, s)
	late := get(t, m, "team-a/late")
	for _, c := range late.Conditions {
		assert.NotContains(t, c.Message, "x-10.0.0.7", c.Type)
		assert.NotContains(t, c.Message, "team-b", c.Type)
	}
	assert.Equal(t, "spec.chat.channel: channel C1 is already bound by a Binding in another namespace",
		cond(t, late, binding.TypeAccepted).Message)
}
