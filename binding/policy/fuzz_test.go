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
