package policy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ProberBlock is the shape of a binding scenario's `prober:` key: the
// prober's state in this leadership term and, optionally, limits that
// differ from the defaults. An expectation of kind Prober (see
// scenario.KindProber) checks the schedule: whether a pass starts at now,
// when the next one is due and why, and the plan it runs.
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
//
// The first pass may not start before the prober first lists the
// Bindings: broker.startedAt plus startupList, or leaderSince when later.
type ProberBlock struct {
	// Limits changes some of the prober's limits; nil keeps the defaults.
	Limits *ProberLimitsOverride `json:"limits,omitempty"`
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
}

// ProberTrigger is one recorded trigger of a scenario's prober block.
type ProberTrigger struct {
	// Kind is leaderStart, config or secret.
	Kind string `json:"kind"`
	// At is when it happened.
	At metav1.Time `json:"at"`
}

// ProberLimitsOverride lists the prober's limits a scenario may change; a
// field left out keeps its default.
type ProberLimitsOverride struct {
	PassSpacing      *metav1.Duration `json:"passSpacing,omitempty"`
	ProberTick       *metav1.Duration `json:"proberTick,omitempty"`
	Concurrency      *int             `json:"concurrency,omitempty"`
	ProbeTimeout     *metav1.Duration `json:"probeTimeout,omitempty"`
	Period           *metav1.Duration `json:"period,omitempty"`
	TriggerRateLimit *metav1.Duration `json:"triggerRateLimit,omitempty"`
	StartupList      *metav1.Duration `json:"startupList,omitempty"`
}

// triggerNames spells each trigger and cause as scenario files do.
var triggerNames = [...]string{TriggerLeaderStart: "leaderStart", TriggerConfig: "config", TriggerSecret: "secret"}

// ScenarioName spells the cause as scenario files do: leaderStart,
// config, secret, periodic or none.
func (c Cause) ScenarioName() string {
	switch {
	case c >= 0 && int(c) < len(triggerNames):
		return triggerNames[c]
	case c == CausePeriodic:
		return "periodic"
	}
	return "none"
}

func parseTrigger(s string) (Trigger, bool) {
	for i, n := range triggerNames {
		if n == s {
			return Trigger(i), true
		}
	}
	return 0, false
}

// ParseProberBlock decodes a scenario's prober block, refusing unknown
// keys and unknown trigger kinds, and applies its limits to
// DefaultLimits. An empty block gives the defaults and a prober that has
// run no pass.
func ParseProberBlock(raw json.RawMessage) (ProberBlock, Limits, error) {
	lim := DefaultLimits()
	var p ProberBlock
	if t := bytes.TrimSpace(raw); len(t) == 0 || bytes.Equal(t, []byte("null")) {
		return p, lim, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return p, lim, fmt.Errorf("prober: %w", err)
	}
	if o := p.Limits; o != nil {
		for _, d := range []struct {
			from *metav1.Duration
			into *time.Duration
		}{
			{o.PassSpacing, &lim.PassSpacing}, {o.ProberTick, &lim.ProberTick}, {o.ProbeTimeout, &lim.ProbeTimeout},
			{o.Period, &lim.Period}, {o.TriggerRateLimit, &lim.TriggerRateLimit}, {o.StartupList, &lim.StartupList},
		} {
			if d.from != nil {
				*d.into = d.from.Duration
			}
		}
		if o.Concurrency != nil {
			lim.Concurrency = *o.Concurrency
		}
		if err := lim.Validate(); err != nil {
			return p, lim, fmt.Errorf("prober.limits: %w", err)
		}
	}
	for i, t := range p.Triggers {
		if _, ok := parseTrigger(t.Kind); !ok {
			return p, lim, fmt.Errorf("prober.triggers[%d].kind: %q is not leaderStart, config or secret", i, t.Kind)
		}
		if t.At.IsZero() {
			return p, lim, fmt.Errorf("prober.triggers[%d].at is required", i)
		}
	}
	for k := range p.LastCovered {
		if _, ok := parseTrigger(k); !ok {
			return p, lim, fmt.Errorf("prober.lastCovered: %q is not leaderStart, config or secret", k)
		}
	}
	return p, lim, nil
}

// State turns the block into the prober's state for a broker started at
// startedAt.
func (p ProberBlock) State(l Limits, startedAt time.Time) ProberState {
	s := ProberState{NotBefore: startedAt.Add(l.StartupList), Running: p.Running}
	if p.LeaderSince != nil && p.LeaderSince.After(s.NotBefore) {
		s.NotBefore = p.LeaderSince.Time
	}
	if p.LastPassStart != nil {
		s.LastStart = p.LastPassStart.Time
	}
	for _, t := range p.Triggers {
		k, _ := parseTrigger(t.Kind)
		s = s.Trigger(k, t.At.Time)
	}
	for name, at := range p.LastCovered {
		k, _ := parseTrigger(name)
		s.LastBy[k] = at.Time
	}
	return s
}
