package hostcheck_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/hostcheck"
	"github.com/condengine/condengine/system"
)

// A system declared as a value, of a kind no part of the module knows,
// goes through the harness with its own worlds, edits and observations;
// its correct host passes under every fault kind, and its planted bugs
// are caught (TestPlantedBugs).
func TestFromSystem_CorrectHostPasses(t *testing.T) {
	hostcheck.Check(t, newGadgetHost(gadgetCorrect), hostcheck.Options{System: hostcheck.FromSystem(gadgets(), gadgetScheme())})
}

// FromSystem refuses what it cannot adapt; Find says why before it runs
// anything.
func TestFromSystem_Refuses(t *testing.T) {
	noGenerator := gadgets()
	noGenerator.Generate = nil
	noStatus := gadgets()
	noStatus.Kinds[0].Status = false
	invalid := gadgets()
	invalid.Name = "Gadgets"
	for name, tc := range map[string]struct {
		sys    *system.System
		scheme *runtime.Scheme
		want   string
	}{
		"nil":                 {nil, gadgetScheme(), "hostcheck: FromSystem: the system is nil"},
		"no generator":        {noGenerator, gadgetScheme(), `system "gadgets": it has no generator (Generate)`},
		"no kind with status": {noStatus, gadgetScheme(), `system "gadgets": it has 0 kinds with Status, want one with a Vocabulary`},
		"invalid":             {invalid, gadgetScheme(), `hostcheck: FromSystem: system "Gadgets": the name must be`},
		"no Go type":          {gadgets(), runtime.NewScheme(), "the scheme has no Go type for example.dev/v1, Kind=Gadget"},
		"no scheme at all":    {gadgets(), nil, "the scheme has no Go type for example.dev/v1, Kind=Gadget"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := hostcheck.Find(context.Background(), newGadgetHost(gadgetCorrect), hostcheck.Options{System: hostcheck.FromSystem(tc.sys, tc.scheme)})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// Options.System is required, and a System value needs a name, a world
// and a kind whose status the host writes.
func TestOptions_SystemRequired(t *testing.T) {
	empty := &hostcheck.System{}
	for name, tc := range map[string]struct {
		sys  *hostcheck.System
		want string
	}{
		"nil":   {nil, "hostcheck: Options.System is nil; set hostcheck.Binding(), hostcheck.FinOps() or hostcheck.FromSystem(...)"},
		"empty": {empty, "hostcheck: system \"\": the Name is empty\nNewWorld is nil\nno kind has Status set: the host writes nothing the harness judges"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := hostcheck.Find(context.Background(), newHost(correct), hostcheck.Options{System: tc.sys})
			if err == nil || err.Error() != tc.want {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}

// ObservedAs hands a host what its system observed, typed: the value
// itself, or an adapted system's observed block decoded as strictly as a
// scenario file's.
func TestObservedAs(t *testing.T) {
	env := func(v any) hostcheck.Env { return hostcheck.Env{Observed: func() any { return v }} }

	got, err := hostcheck.ObservedAs[gadgetObserved](env(json.RawMessage(`{"unhealthy": ["a/g0"]}`)))
	if err != nil || len(got.Unhealthy) != 1 || got.Unhealthy[0] != "a/g0" {
		t.Errorf("a block: got %+v, %v", got, err)
	}
	if _, err := hostcheck.ObservedAs[gadgetObserved](env(json.RawMessage(`{"unhealthy": [], "healthy": []}`))); err == nil || !strings.Contains(err.Error(), "observed.healthy") {
		t.Errorf("a key the type has no place for: got %v, want an error naming observed.healthy", err)
	}
	if got, err := hostcheck.ObservedAs[gadgetObserved](env(nil)); err != nil || got.Unhealthy != nil {
		t.Errorf("nothing observed: got %+v, %v", got, err)
	}
	if got, err := hostcheck.ObservedAs[gadgetObserved](hostcheck.Env{}); err != nil || got.Unhealthy != nil {
		t.Errorf("no Observed: got %+v, %v", got, err)
	}
	probes := []binding.ProbeResult{{UID: "u1", Generation: 2}}
	if got := hostcheck.BindingProbes(env(probes)); len(got) != 1 || got[0].UID != "u1" {
		t.Errorf("BindingProbes: got %v", got)
	}
	if _, err := hostcheck.ObservedAs[gadgetObserved](env(probes)); err == nil || !strings.Contains(err.Error(), "observes a []binding.ProbeResult, not a hostcheck_test.gadgetObserved") {
		t.Errorf("another system's value: got %v", err)
	}
	if got := hostcheck.FinOpsCollection(env(probes)); got != nil {
		t.Errorf("FinOpsCollection of a Binding host: got %v, want nil", got)
	}
}

// A request queued before the clock steps back stays due after the same
// wait: a workqueue's delays run on a monotonic clock. The Gadget host's
// first listing, queued at 10:00, was still nine minutes off after three
// steps back and outlasted the settling budget (seed 406).
func TestFromSystem_ClockStepBackKeepsQueuedDelays(t *testing.T) {
	cx, err := hostcheck.Find(context.Background(), newGadgetHost(gadgetCorrect),
		hostcheck.Options{System: hostcheck.FromSystem(gadgets(), gadgetScheme()), Seed: 406, Schedules: 1})
	if err != nil {
		t.Fatal(err)
	}
	if cx != nil {
		t.Fatalf("a correct host was blamed:\n%s", cx)
	}
}
