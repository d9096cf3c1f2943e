package ctrlplan_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/record"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/examples/ctrlplan"
	"github.com/condengine/condengine/writeplan"
)

// TestRecordTransitions: one Event per transition, Warning for a
// condition that became False, none for a reason change alone.
func TestRecordTransitions(t *testing.T) {
	before := []metav1.Condition{cond("Ready", "True", "OK"), cond("BackendReachable", "True", "OK"), cond("Accepted", "True", "OK")}
	after := []metav1.Condition{cond("Ready", "False", "NotServed"), cond("Accepted", "True", "Valid"), cond("ChannelJoined", "Unknown", "Pending")}
	rec := record.NewFakeRecorder(10)
	ctrlplan.RecordTransitions(rec, &akv1.Binding{}, writeplan.Transitions(before, after))
	close(rec.Events)
	var got []string
	for e := range rec.Events {
		got = append(got, e)
	}
	assert.Equal(t, []string{
		"Warning NotServed Ready: True -> False: Ready NotServed",
		"Normal Pending ChannelJoined: none -> Unknown: ChannelJoined Pending",
		"Normal OK BackendReachable: True -> none: BackendReachable OK",
	}, got)

	ctrlplan.RecordTransitions(nil, &akv1.Binding{}, writeplan.Transitions(before, after)) // a nil recorder records nothing
}
