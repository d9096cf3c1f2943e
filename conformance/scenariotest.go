package conformance

import (
	"io/fs"
	"testing"

	"github.com/condengine/condengine/scenario"
)

// Test runs every scenario file under paths through rs, each as a
// subtest named after its file (scenario.TestName: the base name
// without extension), so a host runs a corpus of its own as fixtures
// and one file of it with -run:
//
//	func TestScenarios(t *testing.T) {
//		conformance.Test(t, conformance.Runners(), "testdata/my-scenarios")
//	}
//
// A file skipped by its runner (scenario.Runners.Modelling) is a
// skipped subtest; one that does not load or run fails with its error.
func Test(t *testing.T, rs scenario.Runners, paths ...string) {
	t.Helper()
	results, err := rs.RunPaths(paths...)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) == 0 {
		t.Fatalf("no scenario files under %v", paths)
	}
	subtests(t, results)
}

// TestFS is Test for the scenario files of fsys:
//
//	func TestCorpus(t *testing.T) {
//		conformance.TestFS(t, conformance.Runners(), conformance.Corpus())
//	}
//
// runs the project's corpus, and `go test -run Corpus/ready-all-true`
// one file of it.
func TestFS(t *testing.T, rs scenario.Runners, fsys fs.FS) {
	t.Helper()
	results, err := rs.RunFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) == 0 {
		t.Fatal("no scenario files in the file system")
	}
	subtests(t, results)
}

func subtests(t *testing.T, results []scenario.Result) {
	t.Helper()
	for _, r := range results {
		t.Run(scenario.TestName(r.Path), func(t *testing.T) {
			if r.Skip != "" {
				t.Skip(r.Skip)
			}
			if r.Err != nil {
				t.Fatal(r.Err)
			}
			if r.Diff != "" {
				t.Errorf("%s: %s\n%s", r.Path, r.File.Name, r.Diff)
			}
		})
	}
}
