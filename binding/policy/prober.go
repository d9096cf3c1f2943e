package policy

import (
	"time"
)

// Trigger is a kind of event that asks for a probe pass before the
// periodic one.
type Trigger int

// The triggers of a pass, in the order that breaks ties between causes.
const (
	// TriggerLeaderStart: this replica became the leader (or the only
	// replica started).
	TriggerLeaderStart Trigger = iota
	// TriggerConfig: an AgentBackend, ChatConnection or Binding changed.
	TriggerConfig
	// TriggerSecret: a Secret a Binding refers to changed.
	TriggerSecret
	numTriggers
)

// Cause says why a pass starts.
type Cause int

// The causes of a pass. The first three match the triggers.
const (
	CauseLeaderStart Cause = iota
	CauseConfig
	CauseSecret
	CausePeriodic
	CauseNone
)

// String names the cause for a log line.
func (c Cause) String() string {
	switch c {
	case CauseLeaderStart:
		return "leader start"
	case CauseConfig:
		return "config change"
	case CauseSecret:
		return "secret change"
	case CausePeriodic:
		return "periodic"
	}
	return "none"
}

// ProberState is what the prober remembers between its ticks. The host
// keeps one per leadership term: a new leader starts from the zero value
// with its NotBefore set and a TriggerLeaderStart recorded.
type ProberState struct {
	// NotBefore is the earliest time a pass may start: the broker's start
	// plus Limits.StartupList, when the prober first lists the Bindings.
	NotBefore time.Time
	// LastStart is when the last pass started; zero when none has.
	LastStart time.Time
	// Running reports a pass in progress; no other starts meanwhile.
	Running bool
	// Pending holds, per trigger, the earliest trigger not yet covered by
	// a pass; zero when there is none.
	Pending [numTriggers]time.Time
	// LastBy holds, per trigger, when the last pass that covered that
	// trigger started, for its rate limit.
	LastBy [numTriggers]time.Time
}

// Trigger records a trigger seen at at. Only the earliest pending trigger
// of each kind matters, so the order triggers are recorded in does not
// change the state. An unknown trigger is ignored.
func (s ProberState) Trigger(t Trigger, at time.Time) ProberState {
	if t < 0 || t >= numTriggers || at.IsZero() {
		return s
	}
	if p := s.Pending[t]; p.IsZero() || at.Before(p) {
		s.Pending[t] = at
	}
	return s
}

// Started records that a pass started at now for the decision d. Every
// trigger pending at now is covered: the pass reads the config as it is
// at its start.
func (s ProberState) Started(now time.Time) ProberState {
	s.LastStart = now
	s.Running = true
	for k := range s.Pending {
		if p := s.Pending[k]; !p.IsZero() && !p.After(now) {
			s.Pending[k] = time.Time{}
			s.LastBy[k] = now
		}
	}
	return s
}

// Finished records that the running pass ended.
func (s ProberState) Finished() ProberState {
	s.Running = false
	return s
}

// PassDecision is the prober's verdict at one tick.
type PassDecision struct {
	// Start reports that a pass starts now.
	Start bool
	// At is when the next pass is due: now when Start, otherwise the
	// exact instant it falls due (not rounded to a
	// tick; the host starts it at its first prober tick at or after At);
	// zero when no pass can be scheduled (one is running).
	At time.Time
	// Cause is what the pass is (or will be) for.
	Cause Cause
}

// NextPass decides whether a pass starts at now. A pass is due at the
// earliest of: each pending trigger, held by its rate limit from the last
// pass that covered that trigger; the period after the last pass's start;
// at once when no pass has run yet. It never starts while a pass runs,
// within PassSpacing of the last pass's start, or before NotBefore. A due
// time in the future is returned exactly, to the nanosecond.
//
// A LastStart after now (a clock stepped back) counts from now instead,
// so the step neither starts a pass early nor stalls the prober for its
// size. NextPass is pure and does not allocate.
func (l Limits) NextPass(s ProberState, now time.Time) PassDecision {
	if s.Running {
		return PassDecision{Cause: CauseNone}
	}
	last := s.LastStart
	if last.After(now) {
		last = now
	}
	var due time.Time
	cause := CausePeriodic
	if last.IsZero() {
		// No pass has run: one is due at once, named after the earliest
		// trigger recorded (ties go to the kind listed first), if any.
		var first time.Time
		for k := range s.Pending {
			if p := s.Pending[k]; !p.IsZero() && (first.IsZero() || p.Before(first)) {
				first, cause = p, Cause(k)
			}
		}
	} else {
		due = last.Add(l.Period)
		for k := range s.Pending {
			p := s.Pending[k]
			if p.IsZero() {
				continue
			}
			if by := s.LastBy[k]; !by.IsZero() {
				if by.After(now) {
					by = now
				}
				if r := by.Add(l.TriggerRateLimit); r.After(p) {
					p = r
				}
			}
			// Ties go to the trigger, listed before the period.
			if !p.After(due) && (p.Before(due) || Cause(k) < cause) {
				due, cause = p, Cause(k)
			}
		}
	}
	if !last.IsZero() {
		if sp := last.Add(l.PassSpacing); sp.After(due) {
			due = sp
		}
	}
	if s.NotBefore.After(due) {
		due = s.NotBefore
	}
	if !due.After(now) {
		return PassDecision{Start: true, At: now, Cause: cause}
	}
	return PassDecision{At: due, Cause: cause}
}
