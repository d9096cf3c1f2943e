package policy

import (
	"errors"
	"fmt"
	"time"

	"github.com/condengine/condengine/clock"
)

// ProbesPerBinding is how many probes one Binding needs in a pass: the
// agent card fetch and the chat platform's channel read. It is a fact of
// the condition set, not a setting.
const ProbesPerBinding = 2

// Limits holds every timing and size the Binding runtime uses. The zero
// value is not usable; start from DefaultLimits and change what differs.
type Limits struct {
	// WriteGap is the least time between the end of one status write of a
	// Binding and the start of the next; it is also the first retry wait
	// after a failed write.
	WriteGap time.Duration
	// WriterTick is how often the writer looks for work. Decisions are
	// not rounded to it: a wait ends at an exact instant and the host
	// writes at its first tick at or after it.
	WriterTick time.Duration
	// BackoffCap is the longest wait between retries of a failing write,
	// and between put-backs during a fight.
	BackoffCap time.Duration
	// PassSpacing is the least time between the starts of two probe passes.
	PassSpacing time.Duration
	// ProberTick is how often the prober looks for work; a pass due at an
	// instant starts at the host's first prober tick at or after it.
	ProberTick time.Duration
	// Concurrency is how many probes run at a time; a Binding takes
	// ProbesPerBinding of them, so Concurrency/ProbesPerBinding Bindings
	// are probed at once. It must be a positive multiple of
	// ProbesPerBinding.
	Concurrency int
	// ProbeTimeout bounds one probe; a probe still running then is
	// ProbeTimeout.
	ProbeTimeout time.Duration
	// Period is the time from the start of one pass to the start of the
	// next periodic one.
	Period time.Duration
	// TriggerRateLimit is the least time between two passes started by the
	// same kind of trigger (config change, Secret change, leader start).
	TriggerRateLimit time.Duration
	// StartupList is how long after the broker starts the prober first
	// lists the Bindings; until then Ready is the bare Pending.
	StartupList time.Duration
	// ConfigLook is how often the broker reads the config.
	ConfigLook time.Duration
	// FightEdits is how many foreign edits of one Binding's status within
	// FightWindow make a fight.
	FightEdits int
	// FightWindow is the window FightEdits are counted in.
	FightWindow time.Duration
	// Quiet is how long without a foreign edit ends a fight.
	Quiet time.Duration
}

// DefaultLimits returns the broker's defaults.
func DefaultLimits() Limits {
	return Limits{
		WriteGap:         10 * time.Second,
		WriterTick:       time.Second,
		BackoffCap:       5 * time.Minute,
		PassSpacing:      30 * time.Second,
		ProberTick:       5 * time.Second,
		Concurrency:      4,
		ProbeTimeout:     10 * time.Second,
		Period:           5 * time.Minute,
		TriggerRateLimit: 30 * time.Second,
		StartupList:      15 * time.Second,
		ConfigLook:       10 * time.Second,
		FightEdits:       3,
		FightWindow:      10 * time.Minute,
		Quiet:            10 * time.Minute,
	}
}

// maxLimit bounds every duration: no broker delay is meant to last a
// year, and the bound keeps sums of limits far from overflowing.
const maxLimit = 365 * 24 * time.Hour

// Validate reports every field that makes the schedule meaningless, each
// naming the field: durations that are zero or negative (a zero tick would
// spin; a zero gap would remove the write limit) or above a year,
// a Concurrency that is not a positive multiple of ProbesPerBinding, a
// backoff cap below the gap, and a fight threshold below 1.
func (l Limits) Validate() error {
	var errs []error
	for _, d := range []struct {
		name string
		v    time.Duration
	}{
		{"WriteGap", l.WriteGap},
		{"WriterTick", l.WriterTick},
		{"BackoffCap", l.BackoffCap},
		{"PassSpacing", l.PassSpacing},
		{"ProberTick", l.ProberTick},
		{"ProbeTimeout", l.ProbeTimeout},
		{"Period", l.Period},
		{"TriggerRateLimit", l.TriggerRateLimit},
		{"StartupList", l.StartupList},
		{"ConfigLook", l.ConfigLook},
		{"FightWindow", l.FightWindow},
		{"Quiet", l.Quiet},
	} {
		switch {
		case d.v <= 0:
			errs = append(errs, fmt.Errorf("limits: %s is %s, must be positive", d.name, d.v))
		case d.v > maxLimit:
			errs = append(errs, fmt.Errorf("limits: %s is %s, must be at most %s", d.name, d.v, maxLimit))
		}
	}
	if l.Concurrency < ProbesPerBinding || l.Concurrency%ProbesPerBinding != 0 {
		errs = append(errs, fmt.Errorf("limits: Concurrency is %d, must be a positive multiple of %d (the probes of one Binding)",
			l.Concurrency, ProbesPerBinding))
	}
	if l.WriteGap > 0 && l.BackoffCap > 0 && l.BackoffCap < l.WriteGap {
		errs = append(errs, fmt.Errorf("limits: BackoffCap %s is below WriteGap %s", l.BackoffCap, l.WriteGap))
	}
	if l.FightEdits < 1 {
		errs = append(errs, fmt.Errorf("limits: FightEdits is %d, must be at least 1", l.FightEdits))
	}
	return errors.Join(errs...)
}

// Backoff is the schedule of waits after failed writes and between
// put-backs in a fight: one gap, then doubling, capped.
func (l Limits) Backoff() clock.Backoff {
	return clock.Backoff{First: l.WriteGap, Cap: l.BackoffCap, Factor: 2}
}

// BindingsAtOnce is how many Bindings a pass probes at the same time.
func (l Limits) BindingsAtOnce() int {
	return max(l.Concurrency/ProbesPerBinding, 1)
}

// MaxPassDuration is the longest a pass over n Bindings can take: the
// Bindings go through in waves of BindingsAtOnce, each wave bounded by
// ProbeTimeout, so ceil(n/BindingsAtOnce) × ProbeTimeout (ceil(n/2) × 10 s
// with the defaults). It is 0 for n <= 0, and equals the MaxDuration of a
// Plan of n Bindings under l.
func (l Limits) MaxPassDuration(n int) time.Duration {
	return passBound(n, l.BindingsAtOnce(), l.ProbeTimeout)
}
