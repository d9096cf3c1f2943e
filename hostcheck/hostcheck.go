package hostcheck

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/condengine/condengine/binding/policy"
	"github.com/condengine/condengine/scenario"
)

// Env is what the harness hands one incarnation of one replica of the
// host: the only clock, lease and observations the host may consult.
type Env struct {
	// Replica is 0 or 1; Incarnation counts the restarts of that replica.
	Replica, Incarnation int
	// StartedAt is when this incarnation started, on the virtual clock.
	StartedAt time.Time
	// Now reads the virtual clock.
	Now func() time.Time
	// Leader reports whether this replica holds the lease now. A deposed
	// leader keeps being called; it must stop writing.
	Leader func() bool
	// Observed returns what the host has observed so far besides the
	// objects, as the system keeps it: the probe results of the Binding
	// system (read them with BindingProbes), the last charge collection
	// run of the FinOps system (FinOpsCollection), the observed block of
	// a system adapted with FromSystem (decode it with ObservedAs). The
	// host must not change the value.
	Observed func() any
}

// ObservedAs returns what env's system observed as a T: the value
// itself when it is a T, or the observed block of a system adapted with
// FromSystem decoded into a T as strictly as a scenario file's (a key T
// has no place for is an error naming it). Before anything is observed,
// and for a system that observes nothing, it is the zero T.
func ObservedAs[T any](env Env) (T, error) {
	var out T
	if env.Observed == nil {
		return out, nil
	}
	switch v := env.Observed().(type) {
	case nil:
		return out, nil
	case T:
		return v, nil
	case json.RawMessage:
		f := scenario.File{Observed: v}
		err := f.DecodeObserved(&out)
		return out, err
	default:
		return out, fmt.Errorf("hostcheck: the system observes a %T, not a %T", v, out)
	}
}

// NewHost builds one incarnation of the host under test over c, which
// reads from the replica's (lagging) cache and writes to the store. It is
// called at the start and after every crash: nothing may survive between
// two calls but what the host stores in the cluster.
type NewHost func(c client.Client, env Env) (reconcile.Reconciler, error)

// Options tune one Check. The zero value of every field but System takes
// the default.
type Options struct {
	// System is the operator the host belongs to: Binding(), FinOps(),
	// FromSystem(...) or a value of the author's own; required.
	System *System
	// Schedules is how many schedules are drawn; DefaultSchedules when 0,
	// or the -hostcheck.schedules flag when it is set.
	Schedules int
	// Steps is the number of events in a schedule; DefaultSteps when 0.
	Steps int
	// Seed is the first schedule's seed; later ones count up from it. 0
	// takes the -hostcheck.seed flag (that seed alone), else the
	// -hostcheck.from flag, else 1.
	Seed uint64
	// Faults restricts the fault kinds drawn; AllFaults when 0.
	Faults Fault
	// Limits is the writer policy the host follows; DefaultLimits when
	// zero.
	Limits policy.Limits
	// Store, when set, is the API server each schedule runs against in
	// place of the harness's in-memory one. It is called once per
	// schedule with the world's objects and must leave the server holding
	// exactly those objects of the system's kinds, status included
	// (removing what an earlier schedule left), and return a client of it
	// that the harness alone uses. The server assigns its own UIDs,
	// resourceVersions and timestamps; the harness reads them back. Keep
	// Faults to what the run can show against a server that applies every
	// write: LateEvents, Crashes and Failover (a stale view then meets a
	// real conflict). See docs/hostcheck.md.
	Store func(ctx context.Context, objs []client.Object) (client.WithWatch, error)
}

// The default budget: DefaultSchedules schedules of DefaultSteps events
// each, which runs in well under 30 s per system on two cores (see
// docs/hostcheck.md for the figures).
const (
	DefaultSchedules = 60
	DefaultSteps     = 60
)

var (
	seedFlag      = flag.Uint64("hostcheck.seed", 0, "hostcheck: run only the schedule of this seed (the replay of a counterexample)")
	schedulesFlag = flag.Int("hostcheck.schedules", 0, "hostcheck: schedules per Check, for a longer soak (default 60)")
	fromFlag      = flag.Uint64("hostcheck.from", 0, "hostcheck: the first schedule's seed, for a soak that starts past the seeds already run (default 1)")
)

// TB is the part of *testing.T a Check reports to.
type TB interface {
	Helper()
	Fatal(args ...any)
	Logf(format string, args ...any)
}

// Check runs the host under opts' schedules and fails t with the shrunk
// counterexample of the first schedule that breaks a rule.
func Check(t TB, newHost NewHost, opts Options) {
	t.Helper()
	cx, err := Find(context.Background(), newHost, opts)
	if err != nil {
		t.Fatal(err)
		return
	}
	if cx != nil {
		t.Fatal("\n" + cx.String())
	}
}

// Find runs the host under opts' schedules and returns the shrunk
// counterexample of the first schedule that breaks a rule, or nil when
// every schedule passes. An error means the harness could not run.
func Find(ctx context.Context, newHost NewHost, opts Options) (*Counterexample, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if newHost == nil {
		return nil, errors.New("hostcheck: nil NewHost")
	}
	seeds := make([]uint64, 0, o.Schedules)
	if *seedFlag != 0 && opts.Seed == 0 {
		seeds = append(seeds, *seedFlag)
	} else {
		for i := range o.Schedules {
			seeds = append(seeds, o.Seed+uint64(i))
		}
	}
	for _, seed := range seeds {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sch := drawSchedule(o, seed)
		v, err := execute(o, newHost, sch)
		if err != nil {
			return nil, err
		}
		if v == nil {
			continue
		}
		return shrink(o, newHost, sch, v)
	}
	return nil, nil
}

// config is Options with the defaults taken and the system read.
type config struct {
	Options
	sys *harnessSystem
}

func (o Options) withDefaults() (config, error) {
	sys, err := newHarnessSystem(o.System)
	if err != nil {
		return config{}, err
	}
	if o.Schedules == 0 {
		o.Schedules = DefaultSchedules
		if *schedulesFlag > 0 {
			o.Schedules = *schedulesFlag
		}
	}
	if o.Steps == 0 {
		o.Steps = DefaultSteps
	}
	if o.Seed == 0 {
		o.Seed = max(1, *fromFlag)
	}
	if o.Faults == 0 {
		o.Faults = AllFaults
	}
	if o.Limits == (policy.Limits{}) {
		o.Limits = policy.DefaultLimits()
	}
	if err := o.Limits.Validate(); err != nil {
		return config{}, fmt.Errorf("hostcheck: %w", err)
	}
	return config{Options: o, sys: sys}, nil
}
