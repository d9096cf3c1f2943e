package policy

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLimits_DefaultsAreTheDecisions(t *testing.T) {
	l := DefaultLimits()
	require.NoError(t, l.Validate())
	assert.Equal(t, 10*time.Second, l.WriteGap)
	assert.Equal(t, time.Second, l.WriterTick)
	assert.Equal(t, 5*time.Minute, l.BackoffCap)
	assert.Equal(t, 30*time.Second, l.PassSpacing)
	assert.Equal(t, 5*time.Second, l.ProberTick)
	assert.Equal(t, 4, l.Concurrency)
	assert.Equal(t, 2, l.BindingsAtOnce())
	assert.Equal(t, 10*time.Second, l.ProbeTimeout)
	assert.Equal(t, 5*time.Minute, l.Period)
	assert.Equal(t, 30*time.Second, l.TriggerRateLimit)
	assert.Equal(t, 15*time.Second, l.StartupList)
	assert.Equal(t, 10*time.Second, l.ConfigLook)
	assert.Equal(t, 3, l.FightEdits)
	assert.Equal(t, 10*time.Minute, l.FightWindow)
	assert.Equal(t, 10*time.Minute, l.Quiet)
}

func TestLimits_Validate_BadValuesNamed(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Limits)
		want   string
	}{
		{"NegativeGap", func(l *Limits) { l.WriteGap = -time.Second }, "WriteGap is -1s, must be positive"},
		{"ZeroWriterTick", func(l *Limits) { l.WriterTick = 0 }, "WriterTick is 0s, must be positive"},
		{"NegativeProbeTimeout", func(l *Limits) { l.ProbeTimeout = -1 }, "ProbeTimeout is -1ns"},
		{"PeriodTooLong", func(l *Limits) { l.Period = 400 * 24 * time.Hour }, "Period is 9600h0m0s, must be at most"},
		{"OddConcurrency", func(l *Limits) { l.Concurrency = 3 }, "Concurrency is 3, must be a positive multiple of 2"},
		{"ZeroConcurrency", func(l *Limits) { l.Concurrency = 0 }, "Concurrency is 0"},
		{"CapBelowGap", func(l *Limits) { l.BackoffCap = time.Second }, "BackoffCap 1s is below WriteGap 10s"},
		{"NoFightThreshold", func(l *Limits) { l.FightEdits = 0 }, "FightEdits is 0"},
		{"NegativeQuiet", func(l *Limits) { l.Quiet = -time.Minute }, "Quiet is -1m0s"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := DefaultLimits()
			tc.change(&l)
			assert.ErrorContains(t, l.Validate(), tc.want)
		})
	}
}

func TestLimits_Validate_ReportsEveryProblem(t *testing.T) {
	l := DefaultLimits()
	l.WriteGap, l.ProberTick = -1, 0
	err := l.Validate()
	assert.ErrorContains(t, err, "WriteGap")
	assert.ErrorContains(t, err, "ProberTick")
}

func TestLimits_MaxPassDuration_CeilHalfTimesTimeout(t *testing.T) {
	l := DefaultLimits()
	for n, want := range map[int]time.Duration{
		-1: 0, 0: 0, 1: 10 * time.Second, 2: 10 * time.Second, 3: 20 * time.Second,
		4: 20 * time.Second, 7: 40 * time.Second, 100_000: 50_000 * 10 * time.Second,
	} {
		assert.Equal(t, want, l.MaxPassDuration(n), "n=%d", n)
	}
	l.Concurrency = 8
	assert.Equal(t, 30*time.Second, l.MaxPassDuration(9))
}

func TestLimits_Backoff_GapThenDoublingToCap(t *testing.T) {
	b := DefaultLimits().Backoff()
	var got []time.Duration
	for n := 1; n <= 8; n++ {
		got = append(got, b.Wait(n))
	}
	s := time.Second
	assert.Equal(t, []time.Duration{10 * s, 20 * s, 40 * s, 80 * s, 160 * s, 300 * s, 300 * s, 300 * s}, got)
}
