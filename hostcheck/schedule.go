package hostcheck

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// Fault is a set of fault kinds a schedule may draw.
type Fault uint32

// The fault kinds. Edits by users and by other controllers, passes of
// the host and time passing are always drawn: they are the world, not a
// fault.
const (
	// LateEvents delivers store events to a replica's cache late, twice,
	// out of order or not at all (until a resync).
	LateEvents Fault = 1 << iota
	// WriteErrors fails writes with a conflict, a server error or a
	// timeout, some after the store applied them.
	WriteErrors
	// Crashes stops a replica at any step, between two writes of one
	// pass included, and starts it again with no memory and a cache that
	// lags the store.
	Crashes
	// Failover moves the lease between two replicas; the deposed leader
	// keeps running.
	Failover
	// ClockJumps moves the virtual clock forward or back.
	ClockJumps
	// LateProbes delivers an observer's results (a probe pass) after the
	// object changed.
	LateProbes
	// Fights has another writer edit one of our condition types of one
	// object again and again (a second controller's apply or a person's
	// kubectl edit), often enough to start a fight over its status. Only a
	// system whose host follows the writer policy (System.WriterPolicy:
	// Binding) draws it.
	Fights

	// AllFaults is every fault kind.
	AllFaults = LateEvents | WriteErrors | Crashes | Failover | ClockJumps | LateProbes | Fights
)

var faultNames = []struct {
	f    Fault
	name string
}{
	{LateEvents, "late-events"}, {WriteErrors, "write-errors"}, {Crashes, "crashes"},
	{Failover, "failover"}, {ClockJumps, "clock-jumps"}, {LateProbes, "late-probes"},
	{Fights, "fights"},
}

func (f Fault) String() string {
	s := ""
	for _, n := range faultNames {
		if f&n.f != 0 {
			if s != "" {
				s += "|"
			}
			s += n.name
		}
	}
	if s == "" {
		return "none"
	}
	return s
}

// op is what one schedule event does.
type op int

const (
	opReconcile    op = iota // the replica takes its next due request
	opDeliver                // the replica's cache takes its next event
	opAdvance                // time passes
	opEdit                   // a user changes an object's spec
	opDelete                 // a user deletes an object
	opCreate                 // a user creates an object
	opForeign                // another controller writes a condition
	opObserveStart           // the system's observer starts a pass (the prober)
	opObserveEnd             // the observer's results arrive (a probe pass ends, a collection run)
	opDrop                   // the replica's next event is lost
	opDup                    // the replica's next event comes again later
	opSwap                   // the replica's next two events swap
	opResync                 // the replica's cache relists
	opFail                   // the replica's next write fails
	opCrash                  // the replica crashes after some writes
	opLease                  // the lease moves to the replica
	opClock                  // the clock jumps
	opFight                  // a round of a fight: time passes, a rival edits the contested object, the leader reconciles it
)

// failKind is how an injected write failure goes.
type failKind int

const (
	failConflict failKind = iota
	failServer
	failTimeoutLost    // times out before the store applies it
	failTimeoutApplied // the store applies it, the answer is lost
	nFailKinds
)

func (k failKind) String() string {
	return [...]string{"a conflict", "a server error", "a timeout (not applied)", "a timeout (applied)"}[k]
}

// event is one step of a schedule. Target and Arg index into the world
// and the system's variants; an event whose target is gone does nothing,
// so any subsequence of a schedule is a schedule (the shrinker relies on
// it).
type event struct {
	Op      op
	Replica int
	Target  int
	Arg     int
	D       time.Duration
}

type schedule struct {
	Seed   uint64
	World  uint64 // seed of the initial world
	Drop   []int  // world objects left out, by index
	Events []event
}

type weighted struct {
	op    op
	w     int
	fault Fault // 0: always drawn
}

var weights = []weighted{
	{opReconcile, 30, 0}, {opDeliver, 24, 0}, {opAdvance, 10, 0},
	{opEdit, 5, 0}, {opDelete, 1, 0}, {opCreate, 1, 0}, {opForeign, 3, 0},
	{opObserveStart, 3, 0}, {opObserveEnd, 4, 0},
	{opDrop, 2, LateEvents}, {opDup, 2, LateEvents}, {opSwap, 2, LateEvents}, {opResync, 2, LateEvents},
	{opFail, 4, WriteErrors}, {opCrash, 2, Crashes}, {opLease, 2, Failover}, {opClock, 2, ClockJumps},
	{opFight, 12, Fights},
}

func drawSchedule(o config, seed uint64) schedule {
	r := rand.New(rand.NewPCG(seed, 0x686f7374636865))
	faults := o.Faults
	if !o.sys.WriterPolicy {
		// The fight rules are the writer policy's: a host not held to
		// it meets no fights.
		faults &^= Fights
	}
	var ws []weighted
	total := 0
	for _, w := range weights {
		if w.fault == 0 || faults&w.fault != 0 {
			ws = append(ws, w)
			total += w.w
		}
	}
	s := schedule{Seed: seed, World: r.Uint64()}
	// One object is fought over: every rival edit of the schedule hits
	// it, so the edits pile up within the policy's fight window.
	contested := 0
	if faults&Fights != 0 {
		contested = r.IntN(8)
	}
	for range o.Steps {
		n := r.IntN(total)
		var pick op
		for _, w := range ws {
			if n < w.w {
				pick = w.op
				break
			}
			n -= w.w
		}
		e := event{Op: pick, Replica: 0, Target: r.IntN(8), Arg: r.IntN(8)}
		if o.Faults&Failover != 0 && r.IntN(3) == 0 {
			e.Replica = 1
		}
		switch pick {
		case opAdvance:
			e.D = time.Duration(1+r.IntN(20)) * time.Second
		case opClock:
			e.D = time.Duration(r.IntN(20)-5) * time.Minute
		case opFail:
			e.Arg = r.IntN(int(nFailKinds))
		case opCrash:
			e.Arg = r.IntN(3) // crash after this many more writes
		case opFight:
			e.Target = contested
			e.D = time.Duration(5+r.IntN(21)) * time.Second
		}
		s.Events = append(s.Events, e)
	}
	return s
}

// late reports whether an observer's results come late: on an odd
// variant, when the schedule draws LateProbes.
func (e event) late(faults Fault) bool {
	return e.Op == opObserveEnd && faults&LateProbes != 0 && e.Arg%2 == 1
}

// String says what e does; the observer's steps are the system's to say
// (World.Observe).
func (e event) String() string {
	r := fmt.Sprintf("replica %d", e.Replica)
	switch e.Op {
	case opReconcile:
		return r + " reconciles its next due request"
	case opDeliver:
		return r + "'s cache receives its next event"
	case opAdvance:
		return fmt.Sprintf("time passes %v", e.D)
	case opEdit:
		return fmt.Sprintf("a user edits object #%d (variant %d)", e.Target, e.Arg)
	case opDelete:
		return fmt.Sprintf("a user deletes object #%d", e.Target)
	case opCreate:
		return fmt.Sprintf("a user creates an object (variant %d)", e.Arg)
	case opForeign:
		return fmt.Sprintf("another controller writes a condition on object #%d (variant %d)", e.Target, e.Arg)
	case opObserveStart:
		return fmt.Sprintf("the system's observer starts a pass (object #%d: variant %d)", e.Target, e.Arg)
	case opObserveEnd:
		return fmt.Sprintf("the system's observer's results arrive (variant %d)", e.Arg)
	case opDrop:
		return r + "'s next event is lost"
	case opDup:
		return r + "'s next event is delivered again later"
	case opSwap:
		return r + "'s next two events arrive swapped"
	case opResync:
		if partitionStarts(e) {
			return r + "'s watch is cut off; its cache relists when it comes back"
		}
		return r + "'s cache relists"
	case opFail:
		return fmt.Sprintf("%s's next write fails with %v", r, failKind(e.Arg))
	case opCrash:
		if e.Arg == 0 {
			return r + " crashes and restarts"
		}
		return fmt.Sprintf("%s crashes after its next %d write(s) and restarts", r, e.Arg)
	case opLease:
		return "the lease moves to " + r
	case opClock:
		return fmt.Sprintf("the clock jumps %v", e.D)
	case opFight:
		who := "a person edits one of our conditions with kubectl edit"
		if e.Arg%2 == 1 {
			who = "a rival controller applies its own value of one of our conditions"
		}
		return fmt.Sprintf("%v later, %s on the contested object #%d; the leader catches up and reconciles it", e.D, who, e.Target)
	}
	return fmt.Sprintf("op %d", e.Op)
}
