package conditions_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/offering"
	"github.com/condengine/condengine/pricebook"
	"github.com/condengine/condengine/subscription"
)

// A Now whose year has five digits (or is negative) cannot be written in
// RFC 3339, so every kind's evaluator refuses it, saying to set
// Snapshot.Now to a real time, and evaluates a Now in the year 9999.
func TestEvaluate_RefusesANowNoStatusCanHold(t *testing.T) {
	evaluators := map[string]func(now time.Time) error{
		"binding.Evaluate": func(now time.Time) error { _, err := binding.Evaluate(binding.Snapshot{Now: now}); return err },
		"binding.EvaluateEach": func(now time.Time) error {
			_, err := binding.EvaluateEach(binding.Snapshot{Now: now}, func(int, binding.Outcome) {})
			return err
		},
		"binding.EvaluateInto": func(now time.Time) error {
			return binding.EvaluateInto(&binding.ResultBuffer{}, binding.Snapshot{Now: now})
		},
		"offering.Evaluate":  func(now time.Time) error { _, err := offering.Evaluate(offering.Snapshot{Now: now}); return err },
		"pricebook.Evaluate": func(now time.Time) error { _, err := pricebook.Evaluate(nil, nil, now); return err },
		"subscription.Evaluate": func(now time.Time) error {
			_, err := subscription.Evaluate(subscription.Snapshot{Now: now})
			return err
		},
		"finops.Evaluate": func(now time.Time) error { _, err := finops.Evaluate(finops.Snapshot{Now: now}); return err },
	}
	for name, evaluate := range evaluators {
		for _, now := range []time.Time{
			time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
			time.Date(9999, 12, 31, 23, 0, 0, 0, time.FixedZone("west", -2*3600)), // 10000-01-01 in UTC
			time.Date(-1, 6, 1, 0, 0, 0, 0, time.UTC),
		} {
			err := evaluate(now)
			if !errors.Is(err, conditions.ErrNowUnwritable) {
				t.Errorf("%s at %v: got %v, want ErrNowUnwritable", name, now, err)
				continue
			}
			if want := "set Snapshot.Now to a real time"; !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %q lacks %q", name, err, want)
			}
		}
		for _, now := range []time.Time{time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC), time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)} {
			if err := evaluate(now); errors.Is(err, conditions.ErrNowUnwritable) {
				t.Errorf("%s at %v: %v", name, now, err)
			}
		}
	}
}
