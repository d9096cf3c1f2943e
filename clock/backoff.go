package clock

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// DefaultFactor is the multiplier a Backoff uses when Factor is 0.
const DefaultFactor = 2

// Backoff is a retry schedule: the first wait, the multiplier applied after
// each further failure, and the largest wait. Its zero Factor means
// DefaultFactor and its zero Cap means no cap below the largest Duration.
type Backoff struct {
	// First is the wait after the first failure.
	First time.Duration
	// Cap is the largest wait; 0 means unbounded (saturating at the largest
	// time.Duration).
	Cap time.Duration
	// Factor multiplies the wait after each further failure; 0 means
	// DefaultFactor.
	Factor int
}

// Validate reports the fields that make the schedule meaningless: negative
// durations or factor, and a non-zero Cap below First.
func (b Backoff) Validate() error {
	var errs []error
	if b.First < 0 {
		errs = append(errs, fmt.Errorf("backoff first wait %s is negative", b.First))
	}
	if b.Cap < 0 {
		errs = append(errs, fmt.Errorf("backoff cap %s is negative", b.Cap))
	}
	if b.Factor < 0 {
		errs = append(errs, fmt.Errorf("backoff factor %d is negative", b.Factor))
	}
	if b.Cap > 0 && b.First > b.Cap {
		errs = append(errs, fmt.Errorf("backoff first wait %s is above the cap %s", b.First, b.Cap))
	}
	return errors.Join(errs...)
}

// Wait returns how long to wait after the given number of consecutive
// failures: 0 for none, First for one, First×Factor^(failures-1) after that,
// never above Cap and never overflowing. It is pure: same fields and count,
// same answer.
func (b Backoff) Wait(failures int) time.Duration {
	if failures <= 0 {
		return 0
	}
	limit := b.Cap
	if limit <= 0 {
		limit = math.MaxInt64
	}
	w := max(b.First, 0)
	if w >= limit {
		return limit
	}
	f := b.Factor
	if f <= 0 {
		f = DefaultFactor
	}
	if f == 1 || w == 0 {
		return w
	}
	// At most 63 multiplications by at least 2 reach any limit, so the loop
	// is bounded whatever the failure count.
	for i := 1; i < failures; i++ {
		if w > limit/time.Duration(f) {
			return limit
		}
		w *= time.Duration(f)
	}
	return min(w, limit)
}
