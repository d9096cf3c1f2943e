package policy

import (
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/internal/wholesec"
)

// Memory is what the writer keeps about one Binding UID between ticks. The
// host holds one per UID in a map, starts a new UID with the zero value
// and drops the entry when the UID is gone: a Binding made again is a new
// UID and inherits nothing.
//
// Memory is a value: its methods return the updated copy and never modify
// the receiver's slices, so a host may keep older copies safely.
type Memory struct {
	// Written is the status this writer last wrote successfully.
	Written []metav1.Condition
	// LastEnd is when the last write attempt ended, successful or not.
	// After the clock steps back it is the first decision that found it
	// after its now (see Observe).
	LastEnd time.Time
	// Failures counts the write attempts that failed since the last
	// success.
	Failures int
	// Foreign is the foreign status last counted as an edit, so the same
	// edit is not counted at every tick; nil when none is counted (an
	// empty, non-nil list is a counted edit that cleared the status). A
	// successful write clears it.
	Foreign []metav1.Condition
	// Edits are the times of the latest foreign edits, oldest first, at
	// most Limits.FightEdits of them.
	Edits []time.Time
	// LastForeign is when the latest foreign edit was seen.
	LastForeign time.Time
	// FightSince is when the current fight began; zero when there is none.
	FightSince time.Time
	// FightEdits counts the foreign edits since the fight began, the one
	// that began it included.
	FightEdits int
}

var emptyMemory Memory

// maxFailures keeps the failure count from overflowing on a write that
// fails forever; the backoff is at its cap long before.
const maxFailures = 1 << 30

// Wrote records a successful write of conds that ended at end. The slice
// is kept as is: the caller must not modify it afterwards.
func (m Memory) Wrote(conds []metav1.Condition, end time.Time) Memory {
	m.Written = conds
	m.LastEnd = end
	m.Failures = 0
	m.Foreign = nil
	return m
}

// Failed records a write attempt that failed at end.
func (m Memory) Failed(end time.Time) Memory {
	m.LastEnd = end
	if m.Failures < maxFailures {
		m.Failures++
	}
	return m
}

// Observe records what a decision saw: a foreign edit (its status and
// time), the start or end of a fight, and a clock stepped back. The host
// calls it after every decision, with the object's conditions the
// decision read; when there is nothing to record it returns m unchanged
// without allocating.
//
// An instant the memory holds after now (the last write's end, an edit,
// the fight's start) can only come from a clock that stepped back; it is
// moved to now, so the wait the decision counted from now stays where it
// is at the next decision instead of moving along with the clock. The
// failure count and the edits themselves are kept.
func (l Limits) Observe(m Memory, d Decision, object []metav1.Condition, now time.Time) Memory {
	m = m.notAfter(now)
	f := l.fightNow(&m, d.ForeignEdit, now)
	if !d.ForeignEdit {
		if !f.on && !m.FightSince.IsZero() {
			m.FightSince, m.FightEdits = time.Time{}, 0
		}
		return m
	}
	m.Foreign = slices.Clone(wholesec.Conditions(object)) // the object's instants, as Decide reads them
	if m.Foreign == nil {
		m.Foreign = []metav1.Condition{}
	}
	edits := make([]time.Time, 0, len(m.Edits)+1)
	for _, t := range m.Edits {
		if l.inWindow(t, now) {
			edits = append(edits, t)
		}
	}
	edits = append(edits, now)
	sortTimes(edits)
	if keep := max(l.FightEdits, 1); len(edits) > keep {
		edits = edits[len(edits)-keep:]
	}
	m.Edits = edits
	if now.After(m.LastForeign) {
		m.LastForeign = now
	}
	switch {
	case f.begins:
		m.FightSince, m.FightEdits = now, f.edits
	case f.on:
		m.FightEdits = f.edits
	default:
		m.FightSince, m.FightEdits = time.Time{}, 0
	}
	return m
}

// notAfter returns m with every instant after now moved to now. The
// edits stay in order (no edit moves past another), and the receiver's
// slice is copied before it is changed.
func (m Memory) notAfter(now time.Time) Memory {
	m.LastEnd = earliest(m.LastEnd, now)
	m.LastForeign = earliest(m.LastForeign, now)
	m.FightSince = earliest(m.FightSince, now)
	if slices.ContainsFunc(m.Edits, func(t time.Time) bool { return t.After(now) }) {
		edits := make([]time.Time, len(m.Edits))
		for i, t := range m.Edits {
			edits[i] = earliest(t, now)
		}
		m.Edits = edits
	}
	return m
}

// earliest returns t, or now when t is after it.
func earliest(t, now time.Time) time.Time {
	if t.After(now) {
		return now
	}
	return t
}

// fight is the state of a fight at one instant.
type fight struct {
	on, begins bool
	// edits counts the fight's foreign edits, the one being seen included.
	edits int
}

// fightNow says whether a fight is on at now, counting a new edit seen now
// when newEdit is set. A fight goes on until Quiet passes without a
// foreign edit; it begins when FightEdits edits fall within FightWindow.
func (l Limits) fightNow(m *Memory, newEdit bool, now time.Time) fight {
	add := 0
	if newEdit {
		add = 1
	}
	if !m.FightSince.IsZero() && now.Sub(m.LastForeign) < l.Quiet {
		return fight{on: true, edits: m.FightEdits + add}
	}
	if !newEdit {
		return fight{}
	}
	n := 1
	for _, t := range m.Edits {
		if l.inWindow(t, now) {
			n++
		}
	}
	if n >= l.FightEdits {
		return fight{on: true, begins: true, edits: 1}
	}
	return fight{}
}

// inWindow reports whether an edit at t still counts at now. An edit time
// after now (a clock stepped back) counts: forgetting it would let a
// clock step end a fight early.
func (l Limits) inWindow(t, now time.Time) bool {
	return now.Sub(t) < l.FightWindow
}

func sortTimes(ts []time.Time) {
	slices.SortFunc(ts, func(a, b time.Time) int { return a.Compare(b) })
}
