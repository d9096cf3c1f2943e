package conformance_test

import (
	"os"
	"slices"
	"testing"

	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/scenario"
)

// The whole corpus, both systems, through the same runners the command
// uses: each binding file through bindingtest.Run, each finops file
// through finopstest.Run, once.
func TestCorpus(t *testing.T) {
	conformance.TestFS(t, conformance.Runners(), conformance.Corpus())
}

// The embedded corpus is the directory's, file for file.
func TestCorpus_EmbedsEveryFile(t *testing.T) {
	embedded, err := scenario.PathsFS(conformance.Corpus())
	if err != nil {
		t.Fatal(err)
	}
	onDisk, err := scenario.PathsFS(os.DirFS("scenarios"))
	if err != nil {
		t.Fatal(err)
	}
	if len(embedded) < 200 || !slices.Equal(embedded, onDisk) {
		t.Fatalf("embedded %d files, directory has %d", len(embedded), len(onDisk))
	}
}

// Subtests are named by file so `-run Corpus/NAME` selects one.
func TestCorpus_SubtestNames(t *testing.T) {
	for in, want := range map[string]string{
		"binding/ready-all-true.yaml": "ready-all-true",
		"x/y.yml":                     "y",
		"z":                           "z",
	} {
		if got := scenario.TestName(in); got != want {
			t.Errorf("TestName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRunners_CoverEverySystem(t *testing.T) {
	rs := conformance.Runners()
	if len(rs) != 2 {
		t.Errorf("%d runners, want the two seed systems'", len(rs))
	}
	for _, sys := range []string{"binding", "finops"} {
		if rs[sys] == nil {
			t.Errorf("no runner for %q", sys)
		}
	}
	rs["extra"] = nil
	if _, ok := conformance.Runners()["extra"]; ok {
		t.Error("Runners returned a shared map")
	}
}

// A wrong expectation fails: the corpus test is not vacuous.
func TestRunners_DeliberatelyFailingScenarioFails(t *testing.T) {
	results, err := conformance.Runners().RunPaths("../testdata/cli/check/deliberately-failing.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 1 || results[0].Passed() || results[0].Diff == "" {
		t.Fatalf("results %+v", results)
	}
}

func TestVocabularies_DistinctKindsInDocumentedOrder(t *testing.T) {
	var kinds []string
	for _, v := range conformance.Vocabularies(conformance.SeedSystems()...) {
		kinds = append(kinds, v.Kind())
	}
	want := []string{"Binding", "PriceBook", "Offering", "Subscription"}
	if len(kinds) != len(want) {
		t.Fatalf("kinds %v, want %v", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Fatalf("kinds %v, want %v", kinds, want)
		}
	}
}
