package conformance_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/condengine/condengine/binding/bindingtest"
	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/finops/finopstest"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

// renamed is the engine with one reason renamed: the planted mutation
// an implementation might carry.
func renamed(sys *system.System, from, to string) conformance.Evaluator {
	return func(f *scenario.File) ([]conformance.Object, error) {
		objs, err := conformance.Reference(sys)(f)
		for i := range objs {
			for j := range objs[i].Conditions {
				if objs[i].Conditions[j].Reason == from {
					objs[i].Conditions[j].Reason = to
				}
			}
		}
		return objs, err
	}
}

func TestDifferential_EngineAgreesWithItself(t *testing.T) {
	for _, sys := range conformance.SeedSystems() {
		t.Run(sys.Name, func(t *testing.T) {
			c, err := conformance.Differential(sys, conformance.Reference(sys), conformance.Options{Runs: 200})
			require.NoError(t, err)
			assert.Nil(t, c)
		})
	}
}

func TestDifferential_CatchesARenamedReasonWithASmallCounterexample(t *testing.T) {
	cases := []struct {
		system          *system.System
		from, to, field string
	}{
		{bindingtest.System(), "ChannelConflict", "ChannelTaken", "conditions[Accepted].reason"},
		{finopstest.System(), "OfferingNotFound", "OfferingMissing", "].reason"},
	}
	for _, tc := range cases {
		t.Run(tc.system.Name, func(t *testing.T) {
			wrong := renamed(tc.system, tc.from, tc.to)
			c, err := conformance.Differential(tc.system, wrong, conformance.Options{Runs: 300})
			require.NoError(t, err)
			require.NotNil(t, c, "the mutation went unnoticed")
			t.Logf("counterexample:\n%s", c.Report())
			require.NotEmpty(t, c.Differences)
			assert.Contains(t, c.Differences[0].Field, tc.field)
			assert.Equal(t, `"`+tc.from+`"`, c.Differences[0].Want)
			assert.Equal(t, `"`+tc.to+`"`, c.Differences[0].Got)
			assert.LessOrEqual(t, len(c.File.Objects), 5, "not shrunk to a handful of objects")

			// The file is a scenario the engine passes and the wrong
			// evaluator still fails.
			path := filepath.Join(t.TempDir(), "counterexample.yaml")
			require.NoError(t, c.WriteFile(path))
			results, err := conformance.Runners().RunPaths(path)
			require.NoError(t, err)
			require.Len(t, results, 1)
			assert.True(t, results[0].Passed(), "engine fails its own counterexample: %v %s", results[0].Err, results[0].Diff)
			f, err := scenario.Load(path)
			require.NoError(t, err)
			want, err := conformance.Reference(tc.system)(f)
			require.NoError(t, err)
			got, err := wrong(f)
			require.NoError(t, err)
			assert.NotEmpty(t, conformance.Compare(want, got))
		})
	}
}

// A host's test fails, naming the file it wrote.
func TestCheck_FailsTheHostTestAndWritesTheFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "cx.yaml")
	ft := &fakeT{TB: t}
	func() {
		defer func() { _ = recover() }()
		conformance.Check(ft, bindingtest.System(), renamed(bindingtest.System(), "ChannelConflict", "Elsewhere"), conformance.Options{Runs: 300, Out: out})
	}()
	require.True(t, ft.failed, "Check did not fail")
	assert.Contains(t, ft.msg, "written to "+out)
	assert.Contains(t, ft.msg, `want "ChannelConflict", got "Elsewhere"`)
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(data), "name: \"counterexample: binding snapshot"), string(data))

	ok := &fakeT{TB: t}
	conformance.Check(ok, finopstest.System(), conformance.Reference(finopstest.System()), conformance.Options{Runs: 20})
	assert.False(t, ok.failed)
}

type fakeT struct {
	testing.TB
	failed bool
	msg    string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.failed = true
	f.msg = fmtS(format, args...)
	panic("FailNow")
}

func fmtS(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// An implementation that breaks while its counterexample is being shrunk
// is reported on the request it broke on, beside the disagreement found
// before, and is asked nothing more.
func TestDifferential_BreakingWhileShrinkingReportsThatRequest(t *testing.T) {
	sys := bindingtest.System()
	wrong := renamed(sys, "ChannelConflict", "ChannelTaken")
	var (
		requests, disagreedAt, crashAt int
		askedAfter                     int
		crashed                        []byte
		crashName                      string
		brokenErr                      error
	)
	eval := func(f *scenario.File) ([]conformance.Object, error) {
		if brokenErr != nil {
			askedAfter++
			return nil, brokenErr
		}
		requests++
		// It crashes on the first candidate from the third on that holds
		// a Binding, so the engine has an answer to show for it.
		if crashAt > 0 && requests >= crashAt && slices.ContainsFunc(f.Objects, func(o json.RawMessage) bool { return bytes.Contains(o, []byte(`"kind":"Binding"`)) }) {
			crashAt = requests
			var err error
			crashed, err = conformance.Request(f)
			require.NoError(t, err)
			crashName = f.Name
			brokenErr = fmt.Errorf("%w: request %d: crashed", conformance.ErrBroken, requests)
			return nil, brokenErr
		}
		got, err := wrong(f)
		if want, _ := conformance.Reference(sys)(f); disagreedAt == 0 && len(conformance.Compare(want, got)) > 0 {
			disagreedAt = requests
			crashAt = requests + 3 // the third candidate the shrinker tries, or a later one
		}
		return got, err
	}
	c, err := conformance.Differential(sys, eval, conformance.Options{Runs: 300})
	require.NoError(t, err)
	require.NotNil(t, c, "the mutation went unnoticed")
	require.NotZero(t, disagreedAt)
	require.NotNil(t, crashed, "the shrinker tried fewer than three candidates")

	// The request it broke on is reported, and so is the disagreement
	// found before it broke, not lost.
	assert.ErrorIs(t, c.BrokeErr, brokenErr)
	assert.NoError(t, c.Err)
	assert.NotEmpty(t, c.Differences, "the disagreement found before the crash is lost")
	assert.Equal(t, crashAt, requests)
	assert.Zero(t, askedAfter, "the implementation was asked again after it broke")
	assert.Equal(t, disagreedAt-1, c.Run)
	require.NotNil(t, c.BrokeOn)
	named := *c.BrokeOn
	named.Name = crashName
	got, err := conformance.Request(&named)
	require.NoError(t, err)
	assert.Equal(t, string(crashed), string(got), "BrokeOn is not the request the implementation broke on")
	assert.NotEmpty(t, c.BrokeOn.Expect)
	assert.Contains(t, c.BrokeOn.Name, "the request the implementation failed on")
	assert.Contains(t, c.File.Name, "counterexample: binding snapshot")
	assert.NotEmpty(t, c.File.Expect)
}
