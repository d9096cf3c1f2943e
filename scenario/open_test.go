package scenario

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/condengine/condengine/manifest"
)

// Any system name is a valid file; the runner set decides whether it
// knows the system, and says which it knows.
func TestParse_AnySystemTheRunnersDecide(t *testing.T) {
	f, err := Parse([]byte("name: a\nsystem: database\nnow: \"2026-11-30T10:00:00Z\"\nexpect: []\n"))
	require.NoError(t, err)
	assert.Equal(t, "database", f.System)

	res := Runners{"widgets": nil, "binding": nil}.Run(f)
	assert.EqualError(t, res.Err, `no runner for system "database"; known: binding, widgets`)
	assert.EqualError(t, Runners{}.Run(f).Err, `no runner for system "database"; known: none`)

	_, err = Parse([]byte("name: a\nsystem: \"\"\nnow: \"2026-11-30T10:00:00Z\"\nexpect: []\n"))
	assert.ErrorContains(t, err, "line 2: scenario: system is required")
	_, err = Parse([]byte("name: a\nnow: \"2026-11-30T10:00:00Z\"\nexpect: []\n"))
	assert.ErrorContains(t, err, "system is required")
}

const observedHead = "name: a\nsystem: database\nnow: \"2026-11-30T10:00:00Z\"\nexpect: []\n"

// observed is the system's own block: the format takes any mapping and
// refuses anything else, naming its line.
func TestParse_ObservedIsAMapping(t *testing.T) {
	f, err := Parse([]byte(observedHead + "observed:\n  jobs: [{name: j, state: done}]\n"))
	require.NoError(t, err)
	assert.JSONEq(t, `{"jobs": [{"name": "j", "state": "done"}]}`, string(f.Observed))

	_, err = Parse([]byte(observedHead + "observed: [1, 2]\n"))
	assert.ErrorContains(t, err, "line 5: scenario: observed: the block holds a list, not a mapping of keys")

	f, err = Parse([]byte(observedHead + "observed: null\n"))
	require.NoError(t, err)
	var v struct{ Jobs []string }
	require.NoError(t, f.DecodeObserved(&v))
	assert.Nil(t, v.Jobs)
}

type observedJobs struct {
	Jobs []struct {
		Name  string `json:"name"`
		State string `json:"state"`
		Tries int    `json:"tries,omitempty"`
	} `json:"jobs"`
}

// The system reads observed as strictly as the rest of the file: an
// unknown key, a value of the wrong type and keys that differ only in
// case are errors naming the field from the top of the file and its line.
func TestDecodeObserved_StrictWithLines(t *testing.T) {
	for name, tc := range map[string]struct{ block, want string }{
		"unknown key": {"observed:\n  jobs:\n    - name: j\n      stat: done\n", "line 8: scenario: observed.jobs[0].stat: unknown field"},
		"wrong type":  {"observed:\n  jobs:\n    - name: j\n      tries: many\n", `line 8: scenario: observed.jobs[0].tries:`},
		"case twice":  {"observed:\n  jobs: []\n  Jobs: []\n", `scenario: observed.`},
		"json":        {"observed: {\"jobs\": [{\"name\": \"j\",\n  \"nope\": 1}]}\n", "line 6: scenario: observed.jobs[0].nope: unknown field"},
	} {
		t.Run(name, func(t *testing.T) {
			f, err := Parse([]byte(observedHead + tc.block))
			require.NoError(t, err, "the format itself takes any mapping")
			var v observedJobs
			err = f.DecodeObserved(&v)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			var de *manifest.DocumentError
			assert.True(t, errors.As(err, &de), "a file's error is a DocumentError")
		})
	}

	f, err := Parse([]byte(observedHead + "observed:\n  jobs:\n    - {name: j, state: done, tries: 2}\n"))
	require.NoError(t, err)
	var v observedJobs
	require.NoError(t, f.DecodeObserved(&v))
	require.Len(t, v.Jobs, 1)
	assert.Equal(t, 2, v.Jobs[0].Tries)

	// A block changed since it was read, or built by hand, has no line
	// to name; the path is still the file's.
	f.Observed = json.RawMessage(`{"jobs": [{"name": "j", "stat": "done"}]}`)
	err = f.DecodeObserved(&v)
	assert.EqualError(t, err, "scenario: observed.jobs[0].stat: unknown field")
	hand := &File{Name: "x", System: "database", Observed: json.RawMessage(`{"extra": 1}`)}
	assert.EqualError(t, hand.DecodeObserved(&v), "scenario: observed.extra: unknown field")
	hand.Observed = json.RawMessage(`"text"`)
	assert.EqualError(t, hand.DecodeObserved(&v), "observed: the block holds a single string, not a mapping of keys")
}

// retryAt is an instant compared to the nanosecond, or none; anything
// else is refused where the file is read.
func TestCheck_RetryAt(t *testing.T) {
	at := time.Date(2026, 11, 30, 10, 0, 5, 300_000_000, time.UTC)
	for name, tc := range map[string]struct {
		want string
		got  time.Time
		diff string
	}{
		"same instant":         {"2026-11-30T10:00:05.3Z", at, ""},
		"same instant, offset": {"2026-11-30T11:00:05.300+01:00", at, ""},
		"a nanosecond off":     {"2026-11-30T10:00:05.300000001Z", at, `retryAt: want "2026-11-30T10:00:05.300000001Z", got "2026-11-30T10:00:05.3Z"`},
		"none expected, one":   {"none", at, `retryAt: want "none", got "2026-11-30T10:00:05.3Z"`},
		"none expected, none":  {"none", time.Time{}, ""},
		"one expected, none":   {"2026-11-30T10:00:05.3Z", time.Time{}, `retryAt: want "2026-11-30T10:00:05.3Z", got "none"`},
	} {
		t.Run(name, func(t *testing.T) {
			f, err := Parse([]byte("name: a\nsystem: database\nnow: \"2026-11-30T10:00:00Z\"\nexpect: [{kind: K, name: o, retryAt: \"" + tc.want + "\"}]\n"))
			require.NoError(t, err)
			got := f.Check([]Outcome{{Kind: "K", Name: "o", RetryAt: tc.got}})
			if tc.diff == "" {
				assert.Empty(t, got)
			} else {
				assert.Contains(t, got, tc.diff)
			}
		})
	}
	_, err := Parse([]byte("name: a\nsystem: database\nnow: \"2026-11-30T10:00:00Z\"\nexpect:\n  - {kind: K, name: o, retryAt: soon}\n"))
	assert.ErrorContains(t, err, `line 5: scenario: expect[0].retryAt: "soon" is neither an RFC 3339 instant nor none`)
}

// finalizerRemoved is checked for any system's outcome.
func TestCheck_FinalizerRemovedForAnySystem(t *testing.T) {
	f, err := Parse([]byte("name: a\nsystem: database\nnow: \"2026-11-30T10:00:00Z\"\nexpect: [{kind: Database, name: d, finalizerRemoved: true}]\n"))
	require.NoError(t, err)
	assert.Contains(t, f.Check([]Outcome{{Kind: "Database", Name: "d"}}), "finalizerRemoved: want true, got false")
}
