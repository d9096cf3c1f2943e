package hostcheck_test

import (
	"context"
	"testing"

	"github.com/condengine/condengine/hostcheck"
)

func TestCorrectHostPasses(t *testing.T) {
	hostcheck.Check(t, newHost(correct), hostcheck.Options{System: hostcheck.Binding()})
}

func TestCorrectFinOpsHostPasses(t *testing.T) {
	hostcheck.Check(t, newFinOpsHost(correct), hostcheck.Options{System: hostcheck.FinOps()})
}

// planted is one planted bug with its system and host.
type planted struct {
	name   string
	system func() *hostcheck.System
	host   hostcheck.NewHost
	// rule is the rule that must catch it, "" for any.
	rule string
}

func plantedBugs() []planted {
	var out []planted
	for b := staleRead; b <= retryDropped; b++ {
		out = append(out, planted{bugNames[b], hostcheck.Binding, newHost(b), ""})
	}
	for b := finalizerFirst; b <= finopsWriteAsStandby; b++ {
		out = append(out, planted{bugNames[b], hostcheck.FinOps, newFinOpsHost(b), ""})
	}
	// The bugs that write wrong values along the way and leave the store
	// right: WriteAnswer alone sees them.
	along := hostcheck.RuleWriteAnswer.ID
	for b := deletedKept; b <= nowFromObjects; b++ {
		out = append(out, planted{bugNames[b], hostcheck.Binding, newHost(b), along})
	}
	for b := failedListEmpty; b <= targetErrorNotFound; b++ {
		out = append(out, planted{bugNames[b], hostcheck.FinOps, newFinOpsHost(b), along})
	}
	out = append(out, planted{bugNames[collectionOnce], hostcheck.FinOps, newFinOpsHost(collectionOnce), ""})
	gadgets := func() *hostcheck.System { return hostcheck.FromSystem(gadgets(), gadgetScheme()) }
	out = append(out,
		planted{"a finalizer released before the status that allows it (a system adapted with FromSystem)", gadgets, newGadgetHost(gadgetReleaseFirst), ""},
		planted{"observations left out of the evaluation (a system adapted with FromSystem)", gadgets, newGadgetHost(gadgetBlind), ""})
	return out
}

// TestPlantedBugs runs each planted host bug under the default budget
// and every fault kind: each must be caught, with a shrunk schedule.
func TestPlantedBugs(t *testing.T) {
	for _, p := range plantedBugs() {
		t.Run(p.name, func(t *testing.T) {
			cx, err := hostcheck.Find(context.Background(), p.host, hostcheck.Options{System: p.system()})
			if err != nil {
				t.Fatal(err)
			}
			if cx == nil {
				t.Fatalf("%s: not caught", p.name)
			}
			if want := p.rule; want != "" && cx.Violation.Rule.ID != want {
				t.Fatalf("%s: caught by %s, where only %s judges the mistake it makes\n%s", p.name, cx.Violation.Rule.ID, want, cx)
			}
			t.Logf("%s: caught by %s, shrunk schedule of %d events (drawn %d)\n%s", p.name, cx.Violation.Rule.ID, cx.Steps, cx.Drawn, cx)
		})
	}
}

// A PriceBook rate that holds a C1 control character reaches the status
// and the pricing document; the harness's own status writes and the
// reference host's apply bodies carry it escaped, or the store (which
// reads apply bodies as YAML, as a server does) refuses every apply and
// the host is blamed for not settling (seed 134).
func TestCorrectFinOpsHostPasses_ControlCharacterInARate(t *testing.T) {
	hostcheck.Check(t, newFinOpsHost(correct), hostcheck.Options{System: hostcheck.FinOps(), Seed: 134, Schedules: 1})
}

// An older Binding edited onto the channel a younger one holds takes it;
// the younger one must be reconciled too, though only the older one
// changed. The reference host writes only the Binding of its request, so
// a Binding's change queues the Bindings of the same ChatConnection
// (seed 332).
func TestCorrectHostPasses_AChannelTakenByAnOlderBinding(t *testing.T) {
	hostcheck.Check(t, newHost(correct), hostcheck.Options{System: hostcheck.Binding(), Seed: 332, Schedules: 1})
}
