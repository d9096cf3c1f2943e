package policy

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// statusFrom turns fuzz bytes into a small condition list, so the fuzzer
// reaches equal, different and foreign-typed lists easily.
func statusFrom(b []byte) []metav1.Condition {
	types := []string{"Accepted", "BackendReachable", "ChannelJoined", "Ready", "example.com/Other"}
	st := []metav1.ConditionStatus{metav1.ConditionTrue, metav1.ConditionFalse, metav1.ConditionUnknown}
	var out []metav1.Condition
	for i := 0; i+1 < len(b) && len(out) < 6; i += 2 {
		out = append(out, metav1.Condition{Type: types[int(b[i])%len(types)], Status: st[int(b[i+1])%len(st)],
			Reason: reasons[int(b[i+1]>>2)%len(reasons)], ObservedGeneration: int64(b[i] >> 4),
			LastTransitionTime: metav1.NewTime(t0.Add(-time.Duration(b[i+1]) * time.Minute))})
	}
	return out
}

func FuzzDecide(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4}, []byte{1, 2, 3, 5}, []byte{1, 2}, int64(5), int64(3), 2, true, int64(0), 0)
	f.Add([]byte{}, []byte{0, 0}, []byte{}, int64(-99999), int64(0), 0, true, int64(60), 4)
	f.Add([]byte{3, 3}, []byte{3, 3}, []byte{3, 3}, int64(1<<40), int64(1<<62), 1<<40, false, int64(-1), -3)
	l := DefaultLimits()
	f.Fuzz(func(t *testing.T, object, computed, written []byte, sinceEnd, nowOff int64, failures int, leader bool, editAgo int64, fightEdits int) {
		now := t0.Add(time.Duration(nowOff) * time.Millisecond)
		m := &Memory{Written: statusFrom(written), LastEnd: now.Add(-time.Duration(sinceEnd) * time.Second),
			Failures: failures, FightEdits: fightEdits}
		if editAgo >= 0 {
			e := now.Add(-time.Duration(editAgo) * time.Second)
			m.Edits, m.LastForeign, m.FightSince = []time.Time{e}, e, e
		}
		in := WriterInput{Object: statusFrom(object), Computed: statusFrom(computed), Memory: m, Leader: leader, Now: now}
		d := l.Decide(in)
		if !leader && d.Action != None {
			t.Fatalf("standby decided %v", d.Action)
		}
		if d.Action == Wait && !d.At.After(now) {
			t.Fatalf("wait until %v is not after now %v", d.At, now)
		}
		if d.Action == Write && !d.At.Equal(now) {
			t.Fatalf("write at %v, not now %v", d.At, now)
		}
		if d.Action == Wait {
			from := m.LastEnd
			if from.After(now) {
				from = now
			}
			if d.At.Sub(from) > l.BackoffCap {
				t.Fatalf("wait %v beyond the cap", d.At.Sub(from))
			}
		}
		next := l.Observe(*m, d, in.Object, now)
		if len(next.Edits) > l.FightEdits {
			t.Fatalf("memory keeps %d edits", len(next.Edits))
		}
	})
}

func FuzzParseWriterBlock(f *testing.F) {
	f.Add([]byte(`{"limits": {"writeGap": "1m", "fightEdits": 2}, "bindings": [{"binding": "a/b", "failures": 3,
		"lastWriteEnd": "2026-11-30T09:59:00Z", "foreignEdits": ["2026-11-30T09:58:00Z"], "fightSince": "2026-11-30T09:58:00Z"}]}`))
	f.Add([]byte(`{"bindings": [{"binding": "a/b", "lastWritten": [{"type": "Ready", "status": "True"}]}]}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"limits": {"quiet": "-1s"}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		w, lim, err := ParseWriterBlock(raw)
		if err != nil {
			return
		}
		if lim.Validate() != nil {
			t.Fatalf("accepted limits that do not validate: %v", lim.Validate())
		}
		for _, b := range w.Bindings {
			m := b.Memory(lim)
			if len(m.Edits) > lim.FightEdits {
				t.Fatalf("memory keeps %d edits", len(m.Edits))
			}
			_ = lim.Decide(WriterInput{Object: b.ForeignStatus, Computed: b.LastWritten, Memory: &m, Leader: true, Now: t0})
		}
	})
}

func FuzzParseProberBlock(f *testing.F) {
	f.Add([]byte(`{"limits": {"passSpacing": "10s", "concurrency": 6}, "leaderSince": "2026-11-30T09:59:58Z",
		"lastPassStart": "2026-11-30T09:59:31.5Z", "lastCovered": {"config": "2026-11-30T09:59:31Z"},
		"triggers": [{"kind": "config", "at": "2026-11-30T09:59:36Z"}, {"kind": "secret", "at": "2026-11-30T09:59:40Z"}]}`), int64(0))
	f.Add([]byte(`{"running": true, "triggers": [{"kind": "leaderStart", "at": "2026-11-30T09:00:00Z"}]}`), int64(-3600))
	f.Add([]byte(`null`), int64(1<<40))
	f.Add([]byte(`{"limits": {"concurrency": 3}}`), int64(5))
	f.Fuzz(func(t *testing.T, raw []byte, startedAgo int64) {
		p, lim, err := ParseProberBlock(raw)
		if err != nil {
			return
		}
		if lim.Validate() != nil {
			t.Fatalf("accepted limits that do not validate: %v", lim.Validate())
		}
		s := p.State(lim, t0.Add(-time.Duration(startedAgo)*time.Second))
		d := lim.NextPass(s, t0)
		switch {
		case s.Running && (d.Start || !d.At.IsZero() || d.Cause != CauseNone):
			t.Fatalf("a running pass scheduled %+v", d)
		case d.Start && (!d.At.Equal(t0) || t0.Before(s.NotBefore)):
			t.Fatalf("a pass starts at %v, not now, or before the listing at %v", d.At, s.NotBefore)
		case !s.Running && !d.Start && !d.At.After(t0):
			t.Fatalf("no pass now, yet due at %v", d.At)
		}
	})
}
