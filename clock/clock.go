package clock

import (
	"sync"
	"time"
)

// Clock is a source of the current time. Hosts pass Clock.Now() into the
// engine; the engine itself never calls it.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
}

// Real is the Clock of the running system. It is the one place in the module
// that reads the wall clock.
type Real struct{}

// Now returns time.Now().
func (Real) Now() time.Time { return time.Now() }

// Fake is a Clock that moves only when told to. It is safe for concurrent
// use; the zero value is ready and reads the zero time.Time.
type Fake struct {
	mu  sync.Mutex
	now time.Time
}

// NewFake returns a Fake that reads t until it is Set or Stepped.
func NewFake(t time.Time) *Fake { return &Fake{now: t} }

// Now returns the fake's current time.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// Set moves the fake to t, forwards or backwards.
func (f *Fake) Set(t time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = t
}

// Step moves the fake by d (backwards when d is negative) and returns the new
// time, so a test can advance and read in one call.
func (f *Fake) Step(d time.Duration) time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
	return f.now
}

var (
	_ Clock = Real{}
	_ Clock = (*Fake)(nil)
)
