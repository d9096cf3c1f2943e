package costjob

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
)

func TestCron_IntervalTable(t *testing.T) {
	cases := []struct {
		interval, cron string
		known          bool
	}{
		{"1h", "0 * * * *", true},
		{"6h", "0 */6 * * *", true},
		{"12h", "0 */12 * * *", true},
		{"24h", "0 0 * * *", true},
		{"1m", "* * * * *", true},
		{"5m", "*/5 * * * *", true},
		{"", "0 0 * * *", true}, // the CRD default 24h
	}
	for _, c := range cases {
		cron, known := Cron(c.interval)
		assert.Equal(t, c.cron, cron, c.interval)
		assert.Equal(t, c.known, known, c.interval)
	}
}

func TestCron_MatchesOnParsedDuration(t *testing.T) {
	for in, want := range map[string]string{
		"60m": "0 * * * *", "3600s": "0 * * * *", "1h0m0s": "0 * * * *", "1440m": "0 0 * * *",
		"300s": "*/5 * * * *", "60s": "* * * * *", "360m": "0 */6 * * *", "0.5h": "0 0 * * *",
	} {
		cron, _ := Cron(in)
		assert.Equal(t, want, cron, in)
	}
}

func TestCron_UnknownIntervalFallsBackToDailySilently(t *testing.T) {
	for _, in := range []string{"2h", "30m", "8h", "48h", "0s", "-1h", "soon", "1d", " 1h", "1H"} {
		cron, known := Cron(in)
		assert.Equal(t, DailySchedule, cron, in)
		assert.False(t, known, in)
	}
}

func FuzzCron(f *testing.F) {
	for _, s := range []string{"1h", "60m", "", "2h", "1.5h", "-5m", "9223372036854775807ns", "1e3h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		cron, known := Cron(in)
		if !known && cron != DailySchedule {
			t.Fatalf("%q: unknown interval got %q, want the daily schedule", in, cron)
		}
		valid := false
		for _, s := range schedules {
			if s.cron == cron {
				valid = true
			}
		}
		if !valid {
			t.Fatalf("%q: schedule %q is not in the table", in, cron)
		}
		if d, err := time.ParseDuration(in); known && in != "" && err != nil {
			t.Fatalf("%q: recognised but does not parse", in)
		} else if known && in != "" {
			// Same duration, same schedule: the mapping is on the value.
			again, _ := Cron(d.String())
			if again != cron {
				t.Fatalf("%q and %q map differently: %q vs %q", in, d.String(), cron, again)
			}
		}
	})
}

func at(h int) metav1.Time { return metav1.NewTime(time.Date(2026, 11, 30, h, 0, 0, 0, time.UTC)) }

func TestRecord_PrependsNewestFirst(t *testing.T) {
	job := finopsv1.CostJob{}
	st, write, err := Record(job, finopsv1.ExecutionRecord{ExecutionTime: at(1), Status: finopsv1.Success, Duration: "3s"})
	require.NoError(t, err)
	assert.True(t, write)
	job.Status = st
	st, _, err = Record(job, finopsv1.ExecutionRecord{ExecutionTime: at(2), Status: finopsv1.Failed, Error: "boom"})
	require.NoError(t, err)
	require.Len(t, st.ExecutionHistory, 2)
	assert.Equal(t, finopsv1.Failed, st.ExecutionHistory[0].Status)
	assert.Equal(t, finopsv1.Success, st.ExecutionHistory[1].Status)
	assert.Equal(t, finopsv1.Failed, st.LastExecutionStatus)
	assert.True(t, st.LastExecutionTime.Equal(&st.ExecutionHistory[0].ExecutionTime))
}

func TestRecord_LastSuccessfulMovesOnlyOnSuccess(t *testing.T) {
	job := finopsv1.CostJob{}
	st, _, _ := Record(job, finopsv1.ExecutionRecord{ExecutionTime: at(1), Status: finopsv1.Failed})
	assert.Nil(t, st.LastSuccessfulExecutionTime, "a failure sets no success time")
	job.Status = st
	st, _, _ = Record(job, finopsv1.ExecutionRecord{ExecutionTime: at(2), Status: finopsv1.Success})
	job.Status = st
	st, _, _ = Record(job, finopsv1.ExecutionRecord{ExecutionTime: at(3), Status: finopsv1.Failed})
	want := at(2)
	assert.True(t, st.LastSuccessfulExecutionTime.Equal(&want))
	assert.Equal(t, finopsv1.Failed, st.LastExecutionStatus)
}

func TestRecord_HistoryCappedAtTen(t *testing.T) {
	job := finopsv1.CostJob{}
	for h := 0; h < 11; h++ {
		st, _, err := Record(job, finopsv1.ExecutionRecord{ExecutionTime: at(h), Status: finopsv1.Success})
		require.NoError(t, err)
		job.Status = st
	}
	require.Len(t, job.Status.ExecutionHistory, HistoryLimit)
	first, last := at(10), at(1)
	assert.True(t, job.Status.ExecutionHistory[0].ExecutionTime.Equal(&first))
	assert.True(t, job.Status.ExecutionHistory[9].ExecutionTime.Equal(&last), "the 11th run drops the oldest")
}

func TestRecord_OnlySuccessAndFailedAreWritten(t *testing.T) {
	for _, s := range []finopsv1.ExecutionStatus{finopsv1.Error, finopsv1.Pending, "", "success"} {
		job := finopsv1.CostJob{Status: finopsv1.CostJobStatus{LastExecutionStatus: finopsv1.Success}}
		st, write, err := Record(job, finopsv1.ExecutionRecord{ExecutionTime: at(1), Status: s})
		assert.Error(t, err, s)
		assert.False(t, write)
		assert.Equal(t, job.Status, st)
	}
}

func TestRecord_ChargeCollectionKeepsEmptyStatus(t *testing.T) {
	job := finopsv1.CostJob{Spec: finopsv1.CostJobSpec{Type: finopsv1.SubscriptionChargeCollection}}
	st, write, err := Record(job, finopsv1.ExecutionRecord{ExecutionTime: at(1), Status: finopsv1.Success})
	require.NoError(t, err)
	assert.False(t, write)
	assert.Equal(t, finopsv1.CostJobStatus{}, st)
}

func TestRecord_ErrorTextRedacted(t *testing.T) {
	st, _, _ := Record(finopsv1.CostJob{}, finopsv1.ExecutionRecord{ExecutionTime: at(1), Status: finopsv1.Failed,
		Error: "connect postgres://finops:hunter2@db.internal:5432/costs failed\nretrying"})
	e := st.ExecutionHistory[0].Error
	assert.NotContains(t, e, "hunter2")
	assert.NotContains(t, e, "db.internal")
	assert.False(t, strings.ContainsAny(e, "\n\r"))
}

func TestRecord_FoldProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		job := finopsv1.CostJob{}
		runs := rapid.SliceOfN(rapid.SampledFrom([]finopsv1.ExecutionStatus{finopsv1.Success, finopsv1.Failed}), 1, 30).Draw(t, "runs")
		var lastOK *metav1.Time
		for i, s := range runs {
			when := metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Hour))
			before := job.Status
			st, write, err := Record(job, finopsv1.ExecutionRecord{ExecutionTime: when, Status: s})
			if err != nil || !write {
				t.Fatalf("run %d: write=%v err=%v", i, write, err)
			}
			if len(before.ExecutionHistory) > 0 && len(before.ExecutionHistory[0].Status) == 0 {
				t.Fatalf("old status modified")
			}
			if s == finopsv1.Success {
				lastOK = &when
			}
			if len(st.ExecutionHistory) != min(i+1, HistoryLimit) {
				t.Fatalf("run %d: history holds %d", i, len(st.ExecutionHistory))
			}
			for k := 1; k < len(st.ExecutionHistory); k++ {
				if !st.ExecutionHistory[k-1].ExecutionTime.After(st.ExecutionHistory[k].ExecutionTime.Time) {
					t.Fatalf("history not newest first")
				}
			}
			if (lastOK == nil) != (st.LastSuccessfulExecutionTime == nil) || (lastOK != nil && !lastOK.Equal(st.LastSuccessfulExecutionTime)) {
				t.Fatalf("lastSuccessfulExecutionTime %v, want %v", st.LastSuccessfulExecutionTime, lastOK)
			}
			job.Status = st
		}
	})
}

func TestTimeouts_DefaultsAndBadValuesKeepDefaults(t *testing.T) {
	assert.Equal(t, DefaultTimeouts(), EffectiveTimeouts(finopsv1.CostJobSpec{}))
	got := EffectiveTimeouts(finopsv1.CostJobSpec{DatabaseInitTimeout: "30s", OpenCostFetchTimeout: "soon", StatusUpdateTimeout: "-1m", HTTPClientTimeout: "2m"})
	assert.Equal(t, 30*time.Second, got.DatabaseInit)
	assert.Equal(t, 2*time.Minute, got.OpenCostFetch, "unparseable keeps the default")
	assert.Equal(t, time.Minute, got.StatusUpdate, "negative keeps the default")
	assert.Equal(t, 2*time.Minute, got.HTTPClient)
}

func TestShards_OptInWithDefaults(t *testing.T) {
	_, _, on := EffectiveSharding(finopsv1.CostJobSpec{})
	assert.False(t, on)
	n, c, on := EffectiveSharding(finopsv1.CostJobSpec{Sharding: &finopsv1.Sharding{Concurrency: 8}})
	assert.True(t, on)
	assert.Equal(t, int32(25), n)
	assert.Equal(t, int32(8), c)
}

// TestCron_AnySpellingOfAKnownDuration writes each table entry in seconds,
// minutes, nanoseconds or Go's canonical form: the schedule never changes.
func TestCron_AnySpellingOfAKnownDuration(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		e := rapid.SampledFrom(schedules).Draw(t, "entry")
		spell := rapid.SampledFrom([]func(time.Duration) string{
			func(d time.Duration) string { return d.String() },
			func(d time.Duration) string { return fmt.Sprintf("%ds", int64(d/time.Second)) },
			func(d time.Duration) string { return fmt.Sprintf("%dm", int64(d/time.Minute)) },
			func(d time.Duration) string { return fmt.Sprintf("%dns", d.Nanoseconds()) },
			func(d time.Duration) string {
				return fmt.Sprintf("%dh%dm", int64(d/time.Hour), int64(d%time.Hour/time.Minute))
			},
		}).Draw(t, "spelling")
		in := spell(e.every)
		cron, known := Cron(in)
		if !known || cron != e.cron {
			t.Fatalf("%q (%v): got %q known=%v, want %q", in, e.every, cron, known, e.cron)
		}
	})
}
