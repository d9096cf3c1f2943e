package conditionstest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

var at = metav1.NewTime(time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC))

func ready(msg string, t metav1.Time) []metav1.Condition {
	return []metav1.Condition{{Type: "Ready", Status: "False", Reason: "Accepted:ChannelConflict", Message: msg, ObservedGeneration: 1, LastTransitionTime: t}}
}

func TestIgnoreLastTransitionTime(t *testing.T) {
	later := metav1.NewTime(at.Add(time.Hour))
	assert.NotEmpty(t, Diff(ready("m", at), ready("m", later)))
	assert.Empty(t, Diff(ready("m", at), ready("m", later), IgnoreLastTransitionTime()))
}

func TestTimesCompareAsInstants(t *testing.T) {
	local := metav1.NewTime(at.In(time.FixedZone("X", 3600)))
	assert.Empty(t, Diff(ready("m", at), ready("m", local)))
}

func TestLooseMessages(t *testing.T) {
	full := "spec.chat.channel: channel C1 is already bound by Binding team-a/first"
	assert.Empty(t, Diff(ready("channel C1", at), ready(full, at), LooseMessages()))
	assert.NotEmpty(t, Diff(ready("channel C2", at), ready(full, at), LooseMessages()))
	assert.NotEmpty(t, Diff(ready("", at), ready(full, at), LooseMessages()), "empty wants empty")
	assert.NotEmpty(t, Diff(ready("channel C1", at), ready(full, at)), "strict without the option")
}

func TestIgnoreMessage(t *testing.T) {
	assert.Empty(t, Diff(ready("a", at), ready("b", at), IgnoreMessage()))
}

func TestNilAndEmptyAreEqual(t *testing.T) {
	assert.Empty(t, Diff(nil, []metav1.Condition{}))
}

func TestAssertConditions_ReportsDiff(t *testing.T) {
	rec := &recorder{TB: t}
	ok := AssertConditions(rec, ready("a", at), ready("b", at))
	assert.False(t, ok)
	assert.Contains(t, rec.msg, "-want +got")
	assert.True(t, AssertConditions(t, ready("a", at), ready("a", at)))
}

type recorder struct {
	testing.TB
	msg string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.msg = format
}
