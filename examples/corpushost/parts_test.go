package corpushost

import (
	"io/fs"
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/scenario"
)

// conditionsOnly is a host's runner that evaluates objects but has no
// status writer or prober of its own: it answers with each object's
// conditions and nothing of the writer's or the prober's verdicts.
func conditionsOnly(engine conformance.Runner) conformance.Runner {
	return func(f *conformance.File) ([]conformance.Outcome, error) {
		got, err := engine(f)
		var out []conformance.Outcome
		for _, o := range got {
			if o.Kind == scenario.KindProber {
				continue
			}
			o.Decision, o.Fight, o.FightBegins, o.ForeignEdit = "", false, false, false
			o.WaitUntil = metav1.Time{}
			out = append(out, o)
		}
		return out, err
	}
}

// A host that declares it models the engine alone runs the whole corpus
// with no failure: the writer and prober vectors are skipped, each with
// the part it lacks as the reason, and every other file still runs.
func TestCorpus_HostDeclaresWhatItModels(t *testing.T) {
	rs := conformance.Runners()
	for system, r := range rs {
		rs[system] = conditionsOnly(r)
	}

	undeclared, err := rs.RunFS(conformance.Corpus())
	if err != nil {
		t.Fatal(err)
	}
	proberFailures := 0
	for _, r := range undeclared {
		if r.Failed() && r.File != nil && slices.Contains(r.File.Parts(), scenario.PartProber) {
			proberFailures++
		}
	}
	if proberFailures == 0 {
		t.Fatal("without a declaration the prober vectors should fail for a host without a prober")
	}
	t.Logf("without a declaration %d prober vectors fail", proberFailures)

	results, err := rs.Modelling(scenario.PartEngine).RunFS(conformance.Corpus())
	if err != nil {
		t.Fatal(err)
	}
	ran, skipped := 0, map[string]int{}
	for _, r := range results {
		switch {
		case r.Failed():
			t.Errorf("%s failed: %v%s", r.Path, r.Err, r.Diff)
		case r.Skip != "":
			skipped[r.Skip]++
		default:
			ran++
		}
	}
	files, err := fs.Glob(conformance.Corpus(), "*/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if ran < len(files)/2 {
		t.Fatalf("ran %d of %d files; skipped %v", ran, len(files), skipped)
	}
	if skipped["needs the prober, which this host does not model"] < proberFailures {
		t.Errorf("skipped %v, want every one of the %d prober failures skipped for the prober", skipped, proberFailures)
	}
	if skipped["needs the writer, which this host does not model"] == 0 {
		t.Errorf("skipped %v, want the writer vectors skipped for the writer", skipped)
	}
	t.Logf("ran %d files; skipped %v", ran, skipped)
}
