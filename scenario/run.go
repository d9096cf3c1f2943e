package scenario

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
)

// Runners maps a system name to the runner that evaluates its scenarios.
type Runners map[string]Runner

// Result is the verdict on one scenario file.
type Result struct {
	// File is the scenario; nil when it could not be loaded.
	File *File
	// Path is the file's path.
	Path string
	// Diff is the text of failed expectations, one line per mismatch
	// under the object it concerns; empty on pass.
	Diff string
	// Mismatches are the failed expectations, for machines.
	Mismatches []Mismatch
	// Err is a load or evaluation error; the scenario fails with it.
	Err error
	// Skip says why the scenario was not run (its runner returned a
	// *NotModelledError); empty when it ran.
	Skip string
}

// Passed reports whether the scenario ran and held. A skipped scenario
// neither passed nor failed.
func (r Result) Passed() bool { return r.Err == nil && r.Diff == "" && r.Skip == "" }

// Failed reports whether the scenario ran and did not hold, or could not
// be loaded or run.
func (r Result) Failed() bool { return r.Err != nil || r.Diff != "" }

// Run evaluates one parsed scenario with the runner of its system.
func (rs Runners) Run(f *File) Result {
	res := Result{File: f, Path: f.Path}
	run, ok := rs[f.System]
	if !ok {
		res.Err = fmt.Errorf("no runner for system %q; known: %s", f.System, rs.names())
		return res
	}
	got, err := run(f)
	if reason := skipReason(err); reason != "" {
		res.Skip = reason
		return res
	}
	if err != nil {
		res.Err = err
		return res
	}
	res.Mismatches = f.Mismatches(got)
	res.Diff = FormatMismatches(res.Mismatches)
	return res
}

// names lists the systems rs has runners for, in order, or says there
// are none.
func (rs Runners) names() string {
	if len(rs) == 0 {
		return "none"
	}
	return strings.Join(sortedKeys(rs), ", ")
}

// RunPaths loads and runs every scenario under the given files and
// directories, in lexical order.
func (rs Runners) RunPaths(paths ...string) ([]Result, error) {
	files, err := Paths(paths...)
	if err != nil {
		return nil, err
	}
	return rs.runAll(files, Load), nil
}

// runAll loads each of files with load and runs it; a file that does not
// load is a Result carrying the error.
func (rs Runners) runAll(files []string, load func(string) (*File, error)) []Result {
	out := make([]Result, 0, len(files))
	for _, p := range files {
		f, err := load(p)
		if err != nil {
			out = append(out, Result{Path: p, Err: err})
			continue
		}
		out = append(out, rs.Run(f))
	}
	return out
}

// RunFS loads and runs every scenario file of fsys (an embedded corpus,
// os.DirFS of a directory, ...), in lexical order of their paths.
func (rs Runners) RunFS(fsys fs.FS) ([]Result, error) {
	files, err := PathsFS(fsys)
	if err != nil {
		return nil, err
	}
	return rs.runAll(files, func(p string) (*File, error) { return LoadFS(fsys, p) }), nil
}

// TestName is the subtest name of a scenario file: its base name without
// the .yaml or .yml extension.
func TestName(p string) string {
	base := filepath.Base(p)
	return strings.TrimSuffix(strings.TrimSuffix(base, ".yaml"), ".yml")
}
