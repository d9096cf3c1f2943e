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
// It reads s as DecidePass keeps it (an instant after now, from a clock
// stepped back, counts as now), and so answers as DecidePass does; a host
// that keeps its state between ticks calls DecidePass, or the wait it is
// told moves along with the clock at every tick. NextPass is pure and
// does not allocate.
func (l Limits) NextPass(s ProberState, now time.Time) PassDecision {
	if s.Running {
		return PassDecision{Cause: CauseNone}
	}
	s = l.proberNotAfter(s, now)
	last := s.LastStart
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

// DecidePass is NextPass for a prober that keeps its state between ticks,
// as every host does: it decides at now and returns the state to keep in
// place of s. That state holds no instant after now: a last start, a
// pending trigger or a covering pass stamped after now (a clock stepped
// back) becomes now, and NotBefore is at most StartupList after now. The
// spacing, the rate limits and the period then count from the first tick
// that saw the step, so the step neither starts a pass early nor stalls
// the prober until the clock is back where it was. When the decision
// starts a pass, the host records it with Started on the returned state.
func (l Limits) DecidePass(s ProberState, now time.Time) (PassDecision, ProberState) {
	s = l.proberNotAfter(s, now)
	return l.NextPass(s, now), s
}

// proberNotAfter returns s with every instant after now moved to now, and
// NotBefore no later than StartupList after now: a prober that has not
// listed yet lists StartupList after it starts, whatever the clock said
// then.
func (l Limits) proberNotAfter(s ProberState, now time.Time) ProberState {
	s.LastStart = earliest(s.LastStart, now)
	for k := range s.Pending {
		s.Pending[k] = earliest(s.Pending[k], now)
		s.LastBy[k] = earliest(s.LastBy[k], now)
	}
	s.NotBefore = earliest(s.NotBefore, now.Add(l.StartupList))
	return s
}
