package scenario

import (
	"fmt"
	"testing"
)

// Runners maps a system name to the runner that evaluates its scenarios.
type Runners map[string]Runner

// Result is the verdict on one scenario file.
type Result struct {
	// File is the scenario; nil when it could not be loaded.
	File *File
	// Path is the file's path.
	Path string
	// Diff is the -want +got text of failed expectations; empty on pass.
	Diff string
	// Err is a load or evaluation error; the scenario fails with it.
	Err error
}

// Passed reports whether the scenario held.
func (r Result) Passed() bool { return r.Err == nil && r.Diff == "" }

// Run evaluates one parsed scenario with the runner of its system.
func (rs Runners) Run(f *File) Result {
	res := Result{File: f, Path: f.Path}
	run, ok := rs[f.System]
	if !ok {
		res.Err = fmt.Errorf("no runner for system %q", f.System)
		return res
	}
	got, err := run(f)
	if err != nil {
		res.Err = err
		return res
	}
	res.Diff = f.Check(got)
	return res
}

// RunPaths loads and runs every scenario under the given files and
// directories, in lexical order.
func (rs Runners) RunPaths(paths ...string) ([]Result, error) {
	files, err := Paths(paths...)
	if err != nil {
		return nil, err
	}
	out := make([]Result, 0, len(files))
	for _, p := range files {
		f, err := Load(p)
		if err != nil {
			out = append(out, Result{Path: p, Err: err})
			continue
		}
		out = append(out, rs.Run(f))
	}
	return out, nil
}

// Test runs every scenario under paths as a subtest named after its file,
// so a host operator can use the corpus (or its own) as fixtures:
//
//	func TestConformance(t *testing.T) {
//		conformance.Runners().Test(t, "testdata/scenarios")
//	}
func (rs Runners) Test(t *testing.T, paths ...string) {
	t.Helper()
	results, err := rs.RunPaths(paths...)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) == 0 {
		t.Fatalf("no scenario files under %v", paths)
	}
	for _, r := range results {
		t.Run(r.Path, func(t *testing.T) {
			if r.Err != nil {
				t.Fatal(r.Err)
			}
			if r.Diff != "" {
				t.Errorf("%s: %s\n%s", r.Path, r.File.Name, r.Diff)
			}
		})
	}
}
