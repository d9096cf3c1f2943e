package clock

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var t0 = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

func TestFake_NowReturnsStartTime(t *testing.T) {
	f := NewFake(t0)
	assert.Equal(t, t0, f.Now())
	assert.Equal(t, t0, f.Now(), "reading must not move the fake")
}

func TestFake_ZeroValueReadsZeroTime(t *testing.T) {
	var f Fake
	assert.True(t, f.Now().IsZero())
}

func TestFake_SetMovesBothWays(t *testing.T) {
	f := NewFake(t0)
	f.Set(t0.Add(time.Hour))
	assert.Equal(t, t0.Add(time.Hour), f.Now())
	f.Set(t0.Add(-time.Hour))
	assert.Equal(t, t0.Add(-time.Hour), f.Now())
}

func TestFake_StepAddsAndReturnsNewTime(t *testing.T) {
	f := NewFake(t0)
	assert.Equal(t, t0.Add(10*time.Second), f.Step(10*time.Second))
	assert.Equal(t, t0.Add(7*time.Second), f.Step(-3*time.Second))
	assert.Equal(t, t0.Add(7*time.Second), f.Now())
}

func TestFake_ConcurrentStepsAllCount(t *testing.T) {
	f := NewFake(t0)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				f.Step(time.Millisecond)
				_ = f.Now()
			}
		})
	}
	wg.Wait()
	assert.Equal(t, t0.Add(800*time.Millisecond), f.Now())
}

func TestReal_NowIsCurrent(t *testing.T) {
	before := time.Now()
	got := Real{}.Now()
	after := time.Now()
	assert.False(t, got.Before(before) || got.After(after), "Real.Now %v outside [%v, %v]", got, before, after)
}

func TestClock_InterfaceIsSatisfied(t *testing.T) {
	clocks := []Clock{Real{}, NewFake(t0)}
	require.Len(t, clocks, 2)
	assert.Equal(t, t0, clocks[1].Now())
}
