package bindingtest

import (
	"fmt"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/binding/policy"
	"github.com/condengine/condengine/scenario"
)

// The binding runner turns the writer and prober blocks of a parsed
// scenario into the policy package's limits, memory and state. The
// blocks' shape and format checks are package scenario's; what is left
// here is the mapping and the limits' own validation.

// writerLimits applies a writer block's limits to policy.DefaultLimits.
func writerLimits(w *scenario.Writer) (policy.Limits, error) {
	lim := policy.DefaultLimits()
	if w == nil || w.Limits == nil {
		return lim, nil
	}
	o := w.Limits
	override(&lim.WriteGap, o.WriteGap)
	override(&lim.WriterTick, o.WriterTick)
	override(&lim.BackoffCap, o.BackoffCap)
	override(&lim.FightWindow, o.FightWindow)
	override(&lim.Quiet, o.Quiet)
	if o.FightEdits != nil {
		lim.FightEdits = *o.FightEdits
	}
	if err := lim.Validate(); err != nil {
		return lim, fmt.Errorf("writer.limits: %w", err)
	}
	return lim, nil
}

// proberLimits applies a prober block's limits to policy.DefaultLimits.
func proberLimits(p *scenario.Prober) (policy.Limits, error) {
	lim := policy.DefaultLimits()
	if p == nil || p.Limits == nil {
		return lim, nil
	}
	o := p.Limits
	override(&lim.PassSpacing, o.PassSpacing)
	override(&lim.ProberTick, o.ProberTick)
	override(&lim.ProbeTimeout, o.ProbeTimeout)
	override(&lim.Period, o.Period)
	override(&lim.TriggerRateLimit, o.TriggerRateLimit)
	override(&lim.StartupList, o.StartupList)
	if o.Concurrency != nil {
		lim.Concurrency = *o.Concurrency
	}
	if err := lim.Validate(); err != nil {
		return lim, fmt.Errorf("prober.limits: %w", err)
	}
	return lim, nil
}

// override sets *into to the block's value when it gives one.
func override(into *time.Duration, from *metav1.Duration) {
	if from != nil {
		*into = from.Duration
	}
}

// writerMemory is the writer's memory of one Binding as a block gives
// it: the foreign edits in time order, no more of them than a fight
// needs, and a fight on since fightSince counting at least one edit.
func writerMemory(b scenario.WriterMemory, l policy.Limits) policy.Memory {
	m := policy.Memory{Written: b.LastWritten, Failures: b.Failures, Foreign: b.ForeignStatus, FightEdits: b.FightEdits}
	if b.LastWriteEnd != nil {
		m.LastEnd = b.LastWriteEnd.Time
	}
	for _, t := range b.ForeignEdits {
		m.Edits = append(m.Edits, t.Time)
		if t.After(m.LastForeign) {
			m.LastForeign = t.Time
		}
	}
	slices.SortFunc(m.Edits, time.Time.Compare)
	if keep := max(l.FightEdits, 1); len(m.Edits) > keep {
		m.Edits = m.Edits[len(m.Edits)-keep:]
	}
	if b.FightSince != nil {
		m.FightSince = b.FightSince.Time
		if m.FightEdits == 0 {
			m.FightEdits = 1
		}
	}
	return m
}

// triggers maps a prober block's trigger kinds to the policy's.
var triggers = map[string]policy.Trigger{
	scenario.TriggerLeaderStart: policy.TriggerLeaderStart,
	scenario.TriggerConfig:      policy.TriggerConfig,
	scenario.TriggerSecret:      policy.TriggerSecret,
}

// proberState is the prober's state a block describes, for a broker
// started at startedAt. A trigger kind the block should not hold (a
// File not validated) is ignored.
func proberState(p *scenario.Prober, l policy.Limits, startedAt time.Time) policy.ProberState {
	s := policy.ProberState{NotBefore: startedAt.Add(l.StartupList)}
	if p == nil {
		return s
	}
	s.Running = p.Running
	if p.LeaderSince != nil && p.LeaderSince.After(s.NotBefore) {
		s.NotBefore = p.LeaderSince.Time
	}
	if p.LastPassStart != nil {
		s.LastStart = p.LastPassStart.Time
	}
	for _, t := range p.Triggers {
		if k, ok := triggers[t.Kind]; ok {
			s = s.Trigger(k, t.At.Time)
		}
	}
	for name, at := range p.LastCovered {
		if k, ok := triggers[name]; ok {
			s.LastBy[k] = at.Time
		}
	}
	return s
}

// causeName spells a pass's cause as an expectation's pass.cause does.
func causeName(c policy.Cause) string {
	switch c {
	case policy.CauseLeaderStart:
		return scenario.TriggerLeaderStart
	case policy.CauseConfig:
		return scenario.TriggerConfig
	case policy.CauseSecret:
		return scenario.TriggerSecret
	case policy.CausePeriodic:
		return scenario.CausePeriodic
	}
	return scenario.CauseNone
}

// writerBindings is the memory a writer block lists; none without one.
func writerBindings(w *scenario.Writer) []scenario.WriterMemory {
	if w == nil {
		return nil
	}
	return w.Bindings
}
