package costjob

import (
	"time"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
)

// DefaultInterval is spec.interval when the CostJob leaves it out.
const DefaultInterval = "24h"

// DailySchedule is the cron schedule of a 24h interval, and of every
// interval the table does not know.
const DailySchedule = "0 0 * * *"

// schedules is the whole interval table; anything else runs daily.
var schedules = []struct {
	every time.Duration
	cron  string
}{
	{time.Minute, "* * * * *"},
	{5 * time.Minute, "*/5 * * * *"},
	{time.Hour, "0 * * * *"},
	{6 * time.Hour, "0 */6 * * *"},
	{12 * time.Hour, "0 */12 * * *"},
	{24 * time.Hour, DailySchedule},
}

// Cron returns the CronJob schedule for a CostJob interval and whether
// the interval is one the table knows. Intervals are compared as parsed
// durations, so "60m" is "1h" and "1440m" is "24h". An empty interval is
// DefaultInterval. Everything else, including text that does not parse,
// zero and negative durations, runs daily with recognised false: the
// operator accepts such a CostJob and says nothing about it on status.
func Cron(interval string) (cron string, recognised bool) {
	if interval == "" {
		interval = DefaultInterval
	}
	d, err := time.ParseDuration(interval)
	if err != nil {
		return DailySchedule, false
	}
	for _, s := range schedules {
		if s.every == d {
			return s.cron, true
		}
	}
	return DailySchedule, false
}

// Schedule is Cron for a CostJob's spec.interval. (It is a function, not
// a method, because CostJob is declared in api/finops/v1alpha1.)
func Schedule(j *finopsv1.CostJob) (cron string, recognised bool) { return Cron(j.Spec.Interval) }
