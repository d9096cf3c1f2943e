package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const goldenDir = "../../testdata/cli/golden"

// run calls the command in-process and returns its exit code and streams.
func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = command().Run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// The demo prints what testdata/cli/golden/demo.txt holds (cmd/cli's
// tests rewrite it with -update).
func TestDemo_Golden(t *testing.T) {
	code, out, errs := run(t, "demo")
	if code != 0 {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
	want, err := os.ReadFile(filepath.Join(goldenDir, "demo.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), out); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// The demo shows the two rows of the seed's table.
func TestDemo_ShowsTheSeedRows(t *testing.T) {
	_, out, _ := run(t, "demo")
	for _, row := range [][]string{
		{"team-a", "team-a-chat", "True", "OK", "C2", "4m"},
		{"team-a", "late", "False", "Accepted:ChannelConflict", "C1"},
	} {
		found := false
		for _, line := range strings.Split(out, "\n") {
			if f := strings.Fields(line); len(f) >= len(row) && strings.Join(f[:len(row)], " ") == strings.Join(row, " ") {
				found = true
			}
		}
		if !found {
			t.Errorf("no row %q in:\n%s", row, out)
		}
	}
	if !strings.Contains(out, "already bound by a Binding in another namespace") {
		t.Error("the refused Binding's message is missing")
	}
}

// The demo's data are scenario files whose expectations hold: the demo
// cannot drift into showing something the engine does not compute.
func TestDemo_DataHoldsItsExpectations(t *testing.T) {
	code, out, _ := run(t, "check", "demo")
	if code != 0 || out != "2 passed, 0 failed\n" {
		t.Fatalf("code %d:\n%s", code, out)
	}
}

// The help lists demo first, as the seed command has demo data.
func TestHelp_ListsDemo(t *testing.T) {
	_, out, _ := run(t, "help")
	if !strings.Contains(out, "commands:\n  demo      show the seed's kubectl view") {
		t.Errorf("help:\n%s", out)
	}
}

// docs/rules.md is generated; this test fails when it no longer matches
// the rule table (run `go generate ./cmd/condengine` to refresh it).
func TestRulesDoc_NotStale(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := run(t, "explain", "-rules", "-out", filepath.Join(dir, "rules.md")); code != 0 {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
	want := strings.Replace(readFile(t, filepath.Join(dir, "rules.md")), "-out "+filepath.Join(dir, "rules.md"), "-out docs/rules.md", 1)
	if d := cmp.Diff(want, readFile(t, "../../docs/rules.md")); d != "" {
		t.Errorf("docs/rules.md is stale: run go generate ./cmd/condengine (-want +got):\n%s", d)
	}
}

// docs/vocabulary is generated; this test fails when it no longer
// matches the vocabularies (run `go generate ./cmd/condengine` to
// refresh it).
func TestVocabularyDocs_NotStale(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := run(t, "vocab", "-o", "markdown", "-out", dir); code != 0 {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
	const docs = "../../docs/vocabulary"
	names := func(dir string) []string {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatalf("%v: run go generate ./cmd/condengine", err)
		}
		var out []string
		for _, e := range entries {
			out = append(out, e.Name())
		}
		slices.Sort(out)
		return out
	}
	want := names(dir)
	if got := names(docs); !cmp.Equal(got, want) {
		t.Errorf("docs/vocabulary holds %v, want %v: run go generate ./cmd/condengine", got, want)
	}
	for _, name := range want {
		w := strings.Replace(readFile(t, filepath.Join(dir, name)), "-out "+dir, "-out docs/vocabulary", 1)
		if d := cmp.Diff(w, readFile(t, filepath.Join(docs, name))); d != "" {
			t.Errorf("docs/vocabulary/%s is stale: run go generate ./cmd/condengine (-want +got):\n%s", name, d)
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
