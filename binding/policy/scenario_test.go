package policy

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseWriterBlock_BadInput(t *testing.T) {
	for name, tc := range map[string]struct{ raw, want string }{
		"UnknownKey":       {`{"bindingz": []}`, "unknown field"},
		"NotNamespaceName": {`{"bindings": [{"binding": "chat"}]}`, `"chat" is not namespace/name`},
		"TooManySlashes":   {`{"bindings": [{"binding": "a/b/c"}]}`, "is not namespace/name"},
		"NegativeFailures": {`{"bindings": [{"binding": "a/b", "failures": -1}]}`, "must not be negative"},
		"ListedTwice":      {`{"bindings": [{"binding": "a/b"}, {"binding": "a/b"}]}`, "listed twice"},
		"NegativeGap":      {`{"limits": {"writeGap": "-5s"}}`, "WriteGap is -5s"},
		"BadDuration":      {`{"limits": {"quiet": "soon"}}`, "writer"},
	} {
		t.Run(name, func(t *testing.T) {
			_, _, err := ParseWriterBlock([]byte(tc.raw))
			assert.ErrorContains(t, err, tc.want)
		})
	}
	_, lim, err := ParseWriterBlock(nil)
	require.NoError(t, err)
	assert.Equal(t, DefaultLimits(), lim)
}

func TestParseProberBlock_BadInput(t *testing.T) {
	for name, tc := range map[string]struct{ raw, want string }{
		"UnknownKey":         {`{"lastPass": "2026-11-30T10:00:00Z"}`, "unknown field"},
		"UnknownTrigger":     {`{"triggers": [{"kind": "configmap", "at": "2026-11-30T10:00:00Z"}]}`, `"configmap" is not leaderStart, config or secret`},
		"TriggerWithoutTime": {`{"triggers": [{"kind": "config"}]}`, "prober.triggers[0].at is required"},
		"UnknownCovered":     {`{"lastCovered": {"period": "2026-11-30T10:00:00Z"}}`, `"period" is not`},
		"OddConcurrency":     {`{"limits": {"concurrency": 3}}`, "Concurrency is 3"},
		"ZeroPeriod":         {`{"limits": {"period": "0s"}}`, "Period is 0s"},
	} {
		t.Run(name, func(t *testing.T) {
			_, _, err := ParseProberBlock([]byte(tc.raw))
			assert.ErrorContains(t, err, tc.want)
		})
	}
	_, lim, err := ParseProberBlock(nil)
	require.NoError(t, err)
	assert.Equal(t, DefaultLimits(), lim)
}

func TestCause_ScenarioName(t *testing.T) {
	for c, want := range map[Cause]string{CauseLeaderStart: "leaderStart", CauseConfig: "config", CauseSecret: "secret",
		CausePeriodic: "periodic", CauseNone: "none", Cause(-1): "none"} {
		assert.Equal(t, want, c.ScenarioName())
	}
}
