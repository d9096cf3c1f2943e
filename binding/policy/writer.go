package policy

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/internal/wholesec"
)

// Action is what the writer does for one Binding at one tick.
type Action int

// The writer's actions.
const (
	// None: nothing to write (the status would not change, or this replica
	// does not write).
	None Action = iota
	// Wait: a write is due but a gap, a backoff or a fight holds it until
	// Decision.At.
	Wait
	// Write: write the computed status now.
	Write
)

// String returns the action's name as scenario files spell it.
func (a Action) String() string {
	switch a {
	case None:
		return "none"
	case Wait:
		return "wait"
	case Write:
		return "write"
	}
	return "unknown"
}

// LogText says why the writer decided what it did, in a few words for a log
// line. The set is closed; each value is a constant, so deciding never
// allocates.
type LogText string

// The writer's log texts.
const (
	LogStandby     LogText = "standby replica: computes, never writes"
	LogNoTime      LogText = "now is the zero time: nothing is decided"
	LogUnchanged   LogText = "status on the object is the computed one"
	LogChanged     LogText = "status changed"
	LogPutBack     LogText = "foreign edit: putting the computed status back"
	LogGap         LogText = "waiting for the write gap"
	LogBackoff     LogText = "waiting after failed writes"
	LogFightWait   LogText = "fight over the status: put-backs spaced by the backoff"
	LogClockBehind LogText = "last write ends after now: waiting from now"
)

// WriterInput is everything the writer policy reads for one Binding.
type WriterInput struct {
	// Object is status.conditions as the host sees it. The host must show
	// its own successful writes here (update its view from the write's
	// answer), or its own write would look like someone else's edit.
	Object []metav1.Condition
	// Computed is the exact list the engine wants on the object (the
	// merged list: lastTransitionTime kept, other writers' types kept).
	Computed []metav1.Condition
	// Memory is this writer's memory of the Binding's UID; nil is a UID it
	// has never written.
	Memory *Memory
	// Leader reports whether this replica is the one that writes.
	Leader bool
	// Now is the instant of the decision.
	Now time.Time
}

// Decision is the writer's verdict for one Binding at one instant.
type Decision struct {
	// Action is None, Wait or Write.
	Action Action
	// At is when the write may happen: Now for Write, the exact instant
	// the gap, backoff or fight spacing ends for Wait (not
	// rounded to a tick), zero for None. A host acts at its first
	// writer tick at or after At.
	At time.Time
	// ForeignEdit reports a foreign edit not counted yet: the host passes
	// the decision to Memory.Observe so it is counted once.
	ForeignEdit bool
	// Fight reports that the Binding's status is being fought over.
	Fight bool
	// FightBegins reports that this decision's foreign edit starts the
	// fight: the host logs it once and counts it in its metric.
	FightBegins bool
	// Log says why, for a log line.
	Log LogText
}

// Decide is the status writer's policy for one Binding. In order:
//
//  1. A replica that is not the leader never writes.
//  2. An object whose conditions of the Binding's own types equal the
//     computed ones, matched by type, needs no write. Order never makes
//     a write due, neither ours among themselves nor another
//     controller's conditions among ours: an API server applying our
//     conditions keeps another manager's entries where they are, so
//     counting any order would write for it alone.
//  3. The object's status differs from what this writer last wrote for
//     the UID and from the computed one: someone else edited it. The edit
//     is counted once (ForeignEdit) and put back with one write. A UID
//     this writer never wrote has no foreign edits.
//  4. The write waits WriteGap from the end of the last write; after
//     failed writes the backoff (one gap, doubling, capped) instead; while
//     a fight lasts, the put-back of the k-th edit of the fight waits
//     Backoff().Wait(k), and the longer of that and the failure backoff
//     holds. With no write remembered (a new leader, a new UID)
//     nothing holds the write back.
//  5. The wait ends at an exact instant: the last write's end plus the
//     wait, to the nanosecond. A last write ending after now (a clock
//     stepped back) counts from now, and Observe moves it there, so the
//     next decision counts from the same instant.
//
// Every comparison, for the write and for foreign edits, looks only at
// the Binding's own condition types, and reads the object's
// lastTransitionTimes at whole seconds, as the API server stores them.
// Decide is pure, and allocates nothing for an object without a
// fraction of a second (every object read from a cluster).
func (l Limits) Decide(in WriterInput) Decision {
	if !in.Leader {
		return Decision{Action: None, Log: LogStandby}
	}
	if in.Now.IsZero() {
		return Decision{Action: None, Log: LogNoTime}
	}
	m := in.Memory
	if m == nil {
		m = &emptyMemory
	}
	fight := l.fightNow(m, false, in.Now)
	// The object's instants are read at whole seconds, as the API server
	// stores them; the memory's keep their nanoseconds.
	object := wholesec.Conditions(in.Object)
	if equalOurs(object, in.Computed) {
		return Decision{Action: None, Fight: fight.on, Log: LogUnchanged}
	}

	// The object differs from the computed status (checked above); it is
	// someone else's edit when it also differs from what this writer last
	// wrote, and only then: a UID never written has no foreign edits.
	foreign := len(m.Written) > 0 && !equalOurs(object, m.Written)
	// Foreign is nil until an edit is counted, so a status someone
	// cleared entirely still counts as an edit the first time.
	newEdit := foreign && (m.Foreign == nil || !equalOurs(object, m.Foreign))
	if newEdit {
		fight = l.fightNow(m, true, in.Now)
	}

	logText := LogChanged
	if foreign {
		logText = LogPutBack
	}
	backoff := l.Backoff()
	wait, waitLog := l.WriteGap, LogGap
	if w := backoff.Wait(m.Failures); w > wait {
		wait, waitLog = w, LogBackoff
	}
	if foreign && fight.on {
		if w := backoff.Wait(fight.edits); w > wait {
			wait, waitLog = w, LogFightWait
		}
	}
	from := m.LastEnd
	if from.After(in.Now) {
		from, waitLog = in.Now, LogClockBehind
	}
	d := Decision{ForeignEdit: newEdit, Fight: fight.on, FightBegins: fight.begins}
	if from.IsZero() {
		d.Action, d.At, d.Log = Write, in.Now, logText
		return d
	}
	due := from.Add(wait)
	if !due.After(in.Now) {
		d.Action, d.At, d.Log = Write, in.Now, logText
		return d
	}
	d.Action, d.At, d.Log = Wait, due, waitLog
	return d
}

// DecideAll decides for every input, appending to out (which may be a
// reused buffer) and returning it. Each decision depends only on its own
// input, so the order of inputs changes only the order of the output.
func (l Limits) DecideAll(in []WriterInput, out []Decision) []Decision {
	for i := range in {
		out = append(out, l.Decide(in[i]))
	}
	return out
}

// equalOurs compares the Binding's own condition types of two lists,
// matched by type: the order they stand in, among themselves or among
// other writers' types, is never a difference. Each type must occur as
// often in both lists, its k-th occurrence in one equal to its k-th in
// the other.
func equalOurs(a, b []metav1.Condition) bool {
	for _, typ := range ourTypes {
		i, j := 0, 0
		for {
			for i < len(a) && a[i].Type != typ {
				i++
			}
			for j < len(b) && b[j].Type != typ {
				j++
			}
			if i == len(a) || j == len(b) {
				if i != len(a) || j != len(b) {
					return false
				}
				break
			}
			if !conditions.Equal(a[i:i+1], b[j:j+1]) {
				return false
			}
			i++
			j++
		}
	}
	return true
}
