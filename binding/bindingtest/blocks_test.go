package bindingtest

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/condengine/condengine/binding/policy"
	"github.com/condengine/condengine/scenario"
)

var blockNow = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

// decodeBlock decodes a writer or prober block as Parse does: unknown
// keys refused.
func decodeBlock(raw []byte, into any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(into)
}

// Limits a block sets are checked against the policy's own rules and
// named by the block's path; an absent block gives the defaults.
func TestBlockLimits_BadInput(t *testing.T) {
	for name, tc := range map[string]struct{ raw, want string }{
		"NegativeGap":  {`{"limits": {"writeGap": "-5s"}}`, "writer.limits: limits: WriteGap is -5s"},
		"ZeroCap":      {`{"limits": {"backoffCap": "0s"}}`, "writer.limits: limits: BackoffCap is 0s"},
		"NoFightEdits": {`{"limits": {"fightEdits": 0}}`, "writer.limits: limits: FightEdits is 0"},
	} {
		t.Run("Writer"+name, func(t *testing.T) {
			var w scenario.Writer
			require.NoError(t, decodeBlock([]byte(tc.raw), &w))
			_, err := writerLimits(&w)
			assert.ErrorContains(t, err, tc.want)
		})
	}
	for name, tc := range map[string]struct{ raw, want string }{
		"OddConcurrency": {`{"limits": {"concurrency": 3}}`, "prober.limits: limits: Concurrency is 3"},
		"ZeroPeriod":     {`{"limits": {"period": "0s"}}`, "prober.limits: limits: Period is 0s"},
	} {
		t.Run("Prober"+name, func(t *testing.T) {
			var p scenario.Prober
			require.NoError(t, decodeBlock([]byte(tc.raw), &p))
			_, err := proberLimits(&p)
			assert.ErrorContains(t, err, tc.want)
		})
	}
	lim, err := writerLimits(nil)
	require.NoError(t, err)
	assert.Equal(t, policy.DefaultLimits(), lim)
	lim, err = proberLimits(nil)
	require.NoError(t, err)
	assert.Equal(t, policy.DefaultLimits(), lim)
}

// Every cause of a pass has its spelling in the format, and every
// trigger kind of the format maps to the policy's trigger of that cause.
func TestCauseName(t *testing.T) {
	for c, want := range map[policy.Cause]string{policy.CauseLeaderStart: "leaderStart", policy.CauseConfig: "config",
		policy.CauseSecret: "secret", policy.CausePeriodic: "periodic", policy.CauseNone: "none", policy.Cause(-1): "none"} {
		assert.Equal(t, want, causeName(c))
	}
	for name, tr := range triggers {
		assert.Equal(t, name, causeName(policy.Cause(tr)), "trigger %s", name)
	}
}

func FuzzWriterBlock(f *testing.F) {
	f.Add([]byte(`{"limits": {"writeGap": "1m", "fightEdits": 2}, "bindings": [{"binding": "a/b", "failures": 3,
		"lastWriteEnd": "2026-11-30T09:59:00Z", "foreignEdits": ["2026-11-30T09:58:00Z"], "fightSince": "2026-11-30T09:58:00Z"}]}`))
	f.Add([]byte(`{"bindings": [{"binding": "a/b", "lastWritten": [{"type": "Ready", "status": "True"}]}]}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"limits": {"quiet": "-1s"}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		var w *scenario.Writer
		if decodeBlock(raw, &w) != nil || w.Validate() != nil {
			return
		}
		lim, err := writerLimits(w)
		if err != nil {
			return
		}
		if lim.Validate() != nil {
			t.Fatalf("accepted limits that do not validate: %v", lim.Validate())
		}
		for _, b := range writerBindings(w) {
			m := writerMemory(b, lim)
			if len(m.Edits) > lim.FightEdits {
				t.Fatalf("memory keeps %d edits", len(m.Edits))
			}
			_ = lim.Decide(policy.WriterInput{Object: b.ForeignStatus, Computed: b.LastWritten, Memory: &m, Leader: true, Now: blockNow})
		}
	})
}

func FuzzProberBlock(f *testing.F) {
	f.Add([]byte(`{"limits": {"passSpacing": "10s", "concurrency": 6}, "leaderSince": "2026-11-30T09:59:58Z",
		"lastPassStart": "2026-11-30T09:59:31.5Z", "lastCovered": {"config": "2026-11-30T09:59:31Z"},
		"triggers": [{"kind": "config", "at": "2026-11-30T09:59:36Z"}, {"kind": "secret", "at": "2026-11-30T09:59:40Z"}]}`), int64(0))
	f.Add([]byte(`{"running": true, "triggers": [{"kind": "leaderStart", "at": "2026-11-30T09:00:00Z"}]}`), int64(-3600))
	f.Add([]byte(`null`), int64(1<<40))
	f.Add([]byte(`{"limits": {"concurrency": 3}}`), int64(5))
	f.Fuzz(func(t *testing.T, raw []byte, startedAgo int64) {
		var p *scenario.Prober
		if decodeBlock(raw, &p) != nil || p.Validate() != nil {
			return
		}
		lim, err := proberLimits(p)
		if err != nil {
			return
		}
		if lim.Validate() != nil {
			t.Fatalf("accepted limits that do not validate: %v", lim.Validate())
		}
		s := proberState(p, lim, blockNow.Add(-time.Duration(startedAgo)*time.Second))
		d := lim.NextPass(s, blockNow)
		switch {
		case s.Running && (d.Start || !d.At.IsZero() || d.Cause != policy.CauseNone):
			t.Fatalf("a running pass scheduled %+v", d)
		case d.Start && (!d.At.Equal(blockNow) || blockNow.Before(s.NotBefore)):
			t.Fatalf("a pass starts at %v, not now, or before the listing at %v", d.At, s.NotBefore)
		case !s.Running && !d.Start && !d.At.After(blockNow):
			t.Fatalf("no pass now, yet due at %v", d.At)
		}
	})
}
