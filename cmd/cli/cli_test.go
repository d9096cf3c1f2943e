package cli

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/condengine/condengine/conformance"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/cli/golden")

const (
	demoDir   = "../condengine/demo"
	cliData   = "../../testdata/cli"
	goldenDir = cliData + "/golden"
	fixedNow  = "2026-11-30T10:00:00Z"
)

// seedCmd is the command the tests run: condengine's, the seed systems
// and the demo of cmd/condengine.
var seedCmd = &Command{
	Name:     "condengine",
	Systems:  conformance.SeedSystems(),
	Generate: "go generate ./cmd/condengine",
	Demo: &Demo{
		Summary:  "show the seed's kubectl view and a FinOps family, computed from built-in data",
		Files:    os.DirFS("../condengine"),
		Sections: []DemoSection{{File: "demo/binding.yaml", Title: "Bindings"}, {File: "demo/finops.yaml", Title: "FinOps"}},
	},
}

// run calls the command in-process and returns its exit code and streams.
func run(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = seedCmd.Run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// golden compares got with the named golden file, or rewrites it with
// -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(goldenDir, name)
	if *update {
		if err := os.MkdirAll(goldenDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/cli -update to create it)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s is stale or the output changed (-want +got):\n%s", path, d)
	}
}

// runGolden runs the command with no input, fails t unless it exits 0,
// and compares its stdout with the named golden file; it returns stdout.
func runGolden(t *testing.T, name string, args ...string) string {
	t.Helper()
	code, out, errs := run(t, "", args...)
	if code != exitOK {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
	golden(t, name, out)
	return out
}

func TestRun_NoArguments_UsageAndExit2(t *testing.T) {
	code, out, errs := run(t, "")
	if code != exitUsage || out != "" || !strings.Contains(errs, "usage: condengine") {
		t.Fatalf("code %d, stdout %q, stderr %q", code, out, errs)
	}
}

func TestRun_Help_ListsEveryCommand(t *testing.T) {
	code, out, _ := run(t, "", "help")
	if code != exitOK {
		t.Fatalf("code %d", code)
	}
	for _, c := range seedCmd.commands() {
		if !strings.Contains(out, "  "+c.name+" ") {
			t.Errorf("help does not list %q:\n%s", c.name, out)
		}
	}
}

func TestRun_UnknownCommand_Exit2(t *testing.T) {
	code, _, errs := run(t, "", "frobnicate")
	if code != exitUsage || !strings.Contains(errs, `unknown command "frobnicate"`) {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
}

func TestRun_UsageErrors_Exit2(t *testing.T) {
	for _, args := range [][]string{
		{"check"},
		{"check", "-nosuchflag", "x"},
		{"vocab", "-o", "xml"},
		{"vocab", "NoSuchKind"},
		{"vocab", "Binding", "PriceBook"},
		{"eval", "-o", "wide"},
		{"eval", "-now", "yesterday"},
		{"eval", "stray"},
		{"demo", "extra"},
		{"version", "extra"},
		{"version", "-o", "yaml"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, out, errs := run(t, "", args...)
			if code != exitUsage {
				t.Errorf("code %d, want %d; stderr %q", code, exitUsage, errs)
			}
			if out != "" {
				t.Errorf("a usage error printed to stdout: %q", out)
			}
			if errs == "" {
				t.Error("a usage error printed nothing on stderr")
			}
		})
	}
}

func TestRun_FlagHelp_Exit0(t *testing.T) {
	for _, c := range seedCmd.commands() {
		code, _, errs := run(t, "", c.name, "-h")
		if code != exitOK || !strings.Contains(errs, "usage: condengine "+c.name) {
			t.Errorf("%s -h: code %d, stderr %q", c.name, code, errs)
		}
	}
}

func TestParseFlags_FlagsAfterArguments(t *testing.T) {
	var e env
	e.stderr = &bytes.Buffer{}
	fs := newFlags(e, "x", "x")
	v := fs.Bool("v", false, "")
	pos, _, ok := parseFlags(fs, []string{"a", "-v", "-", "b"})
	if !ok || !*v || !cmp.Equal(pos, []string{"a", "-", "b"}) {
		t.Fatalf("ok %v, v %v, pos %q", ok, *v, pos)
	}
}
