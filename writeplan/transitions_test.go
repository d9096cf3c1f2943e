package writeplan_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/writeplan"
)

func c(typ string, st metav1.ConditionStatus, reason string) metav1.Condition {
	return metav1.Condition{Type: typ, Status: st, Reason: reason, Message: reason + " message"}
}

func TestTransitions(t *testing.T) {
	before := []metav1.Condition{
		c("Ready", "True", "Bound"), c("BackendReachable", "True", "OK"), c("ChannelJoined", "True", "Joined"), c("Audited", "True", "Checked"),
	}
	after := []metav1.Condition{
		c("Ready", "False", "NotServed"), c("ChannelJoined", "True", "Rejoined"), c("Accepted", "True", "Accepted"), c("Audited", "True", "Checked"),
	}
	assert.Equal(t, []writeplan.Transition{
		{Type: "Ready", From: "True", To: "False", Reason: "NotServed", Message: "NotServed message"},
		{Type: "Accepted", From: "", To: "True", Reason: "Accepted", Message: "Accepted message"},
		{Type: "BackendReachable", From: "True", To: "", Reason: "OK", Message: "OK message"},
	}, writeplan.Transitions(before, after))
	assert.Empty(t, writeplan.Transitions(after, after))
	assert.Empty(t, writeplan.Transitions(nil, nil))
	dup := []metav1.Condition{c("Ready", "True", "A"), c("Ready", "False", "B")}
	assert.Equal(t, []writeplan.Transition{{Type: "Ready", To: "True", Reason: "A", Message: "A message"}}, writeplan.Transitions(nil, dup))
}
