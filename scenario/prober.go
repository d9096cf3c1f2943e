package scenario

import (
	"errors"
	"fmt"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Prober is a binding scenario's `prober:` block: the prober's state in
// this leadership term and, optionally, limits that differ from the
// defaults. An expectation of kind KindProber checks the schedule it
// gives: whether a pass starts at now, when the next one is due and why,
// and the plan it runs.
//
//	prober:
//	  limits: {passSpacing: 30s, proberTick: 5s, concurrency: 4, probeTimeout: 10s,
//	           period: 5m, triggerRateLimit: 30s, startupList: 15s}   # optional
//	  leaderSince: "2026-11-30T09:00:00Z"   # optional: when this replica began to lead
//	  lastPassStart: "2026-11-30T09:58:00Z" # optional: absent when no pass has run this term
//	  running: false                        # a pass is in progress
//	  triggers:                             # triggers no pass has covered yet
//	    - {kind: config, at: "2026-11-30T09:59:40Z"}   # leaderStart | config | secret
//	  lastCovered:                          # when the last pass covering each kind started
//	    config: "2026-11-30T09:58:00Z"
//	  lookedAt: ["2026-11-30T09:59:55Z"]    # optional: earlier looks at the schedule, as they happened
//
// The first pass may not start before the prober first lists the
// Bindings: broker.startedAt plus startupList, or leaderSince when later.
type Prober struct {
	// Limits changes some of the prober's limits; nil keeps the defaults.
	Limits *ProberLimits `json:"limits,omitempty"`
	// LeaderSince is when this replica became the leader; absent means
	// since the broker started.
	LeaderSince *metav1.Time `json:"leaderSince,omitempty"`
	// LastPassStart is when the last pass of this term started.
	LastPassStart *metav1.Time `json:"lastPassStart,omitempty"`
	// Running reports a pass in progress.
	Running bool `json:"running,omitempty"`
	// Triggers are the triggers recorded and not yet covered by a pass.
	Triggers []ProberTrigger `json:"triggers,omitempty"`
	// LastCovered maps a trigger kind to the start of the last pass that
	// covered it, for its rate limit.
	LastCovered map[string]metav1.Time `json:"lastCovered,omitempty"`
	// LookedAt lists earlier instants, in the order they happened, at
	// which the prober looked at its schedule without starting a pass. A
	// runner decides at each of them first, keeping the state each
	// decision leaves as a host does, then at now. Its clock may have
	// stepped back between two of them.
	LookedAt []metav1.Time `json:"lookedAt,omitempty"`
}

// ProberTrigger is one recorded trigger of a prober block.
type ProberTrigger struct {
	// Kind is TriggerLeaderStart, TriggerConfig or TriggerSecret.
	Kind string `json:"kind"`
	// At is when it happened.
	At metav1.Time `json:"at"`
}

// ProberLimits lists the prober's limits a scenario may change; a field
// left out keeps the runner's default.
type ProberLimits struct {
	// PassSpacing is the least time between the starts of two passes.
	PassSpacing *metav1.Duration `json:"passSpacing,omitempty"`
	// ProberTick is how often the prober looks at its schedule.
	ProberTick *metav1.Duration `json:"proberTick,omitempty"`
	// Concurrency is how many probes run at the same time.
	Concurrency *int `json:"concurrency,omitempty"`
	// ProbeTimeout bounds each probe.
	ProbeTimeout *metav1.Duration `json:"probeTimeout,omitempty"`
	// Period is the time between periodic passes.
	Period *metav1.Duration `json:"period,omitempty"`
	// TriggerRateLimit is the least time between two passes for one
	// trigger kind.
	TriggerRateLimit *metav1.Duration `json:"triggerRateLimit,omitempty"`
	// StartupList is how long after the broker starts the prober first
	// lists the Bindings.
	StartupList *metav1.Duration `json:"startupList,omitempty"`
}

// The trigger kinds of a prober block, and the causes of a pass as an
// expectation's pass.cause spells them: a trigger kind, CausePeriodic, or
// CauseNone while a pass runs.
const (
	TriggerLeaderStart = "leaderStart"
	TriggerConfig      = "config"
	TriggerSecret      = "secret"
	CausePeriodic      = "periodic"
	CauseNone          = "none"
)

// triggerKinds lists the trigger kinds a prober block may name.
var triggerKinds = []string{TriggerLeaderStart, TriggerConfig, TriggerSecret}

// Validate reports what the block's format does not allow: a limit of
// zero or less, a trigger of an unknown kind or without a time, a
// lastCovered key that is not a trigger kind, a lookedAt entry without a
// time. How limits relate to each
// other is checked by the runner, which knows their defaults. A nil block is valid.
func (p *Prober) Validate() error {
	if p == nil {
		return nil
	}
	if l := p.Limits; l != nil {
		if err := errors.Join(positive("prober.limits.passSpacing", l.PassSpacing), positive("prober.limits.proberTick", l.ProberTick),
			atLeastOne("prober.limits.concurrency", l.Concurrency), positive("prober.limits.probeTimeout", l.ProbeTimeout),
			positive("prober.limits.period", l.Period), positive("prober.limits.triggerRateLimit", l.TriggerRateLimit),
			positive("prober.limits.startupList", l.StartupList)); err != nil {
			return err
		}
	}
	for i, t := range p.Triggers {
		if !slices.Contains(triggerKinds, t.Kind) {
			return fmt.Errorf("prober.triggers[%d].kind: %q is not leaderStart, config or secret", i, t.Kind)
		}
		if t.At.IsZero() {
			return fmt.Errorf("prober.triggers[%d].at is required", i)
		}
	}
	for _, k := range sortedKeys(p.LastCovered) {
		if !slices.Contains(triggerKinds, k) {
			return fmt.Errorf("prober.lastCovered: %q is not leaderStart, config or secret", k)
		}
	}
	for i, at := range p.LookedAt {
		if at.IsZero() {
			return fmt.Errorf("prober.lookedAt[%d] is required", i)
		}
	}
	return nil
}

// sortedKeys lists m's keys in order, so the first error reported is
// the same on every run.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
