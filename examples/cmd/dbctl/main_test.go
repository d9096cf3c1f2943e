package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/condengine/condengine/cmd/cli"
	"github.com/condengine/condengine/examples/database/dbsystem"
	"github.com/condengine/condengine/system"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata")

// run runs dbctl with args in-process and returns its exit code and
// output.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	c := &cli.Command{Name: "dbctl", Systems: []*system.System{dbsystem.System()}}
	code := c.Run(args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test -run %s -update rewrites it)\ngot:\n%s\nwant:\n%s", path, t.Name(), got, want)
	}
}

// eval and explain read a manifest stream of Databases and Secrets as
// kubectl gets them, at a fixed instant.
func TestEvalAndExplain_OnAManifest(t *testing.T) {
	for name, args := range map[string][]string{
		"eval.golden":              {"eval", "-f", "testdata/databases.yaml", "-now", "2026-11-30T10:00:00Z"},
		"explain.golden":           {"explain", "-f", "testdata/databases.yaml", "-now", "2026-11-30T10:00:00Z", "exdb"},
		"explain-orders.golden":    {"explain", "-f", "testdata/databases.yaml", "-now", "2026-11-30T10:00:00Z", "-o", "json", "databases", "shop/orders"},
		"eval-probe-failed.golden": {"eval", "-f", "../../database/dbsystem/testdata/scenarios/probe-redacted.yaml", "-o", "yaml"},
	} {
		t.Run(name, func(t *testing.T) {
			code, out, errOut := run(t, args...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr:\n%s", code, errOut)
			}
			golden(t, name, out)
		})
	}
}

// check runs the system's scenario files, and reports the one that
// fails.
func TestCheck_Scenarios(t *testing.T) {
	code, out, errOut := run(t, "check", "../../database/dbsystem/testdata/scenarios")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	src, err := os.ReadFile("../../database/dbsystem/testdata/scenarios/secret-missing.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, bytes.Replace(src, []byte("reason: SecretMissing"), []byte("reason: Created"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := run(t, "check", bad); code == 0 || !strings.Contains(out, `want "Created"`) {
		t.Errorf("a failing scenario passed check: exit %d\n%s", code, out)
	}
}

// The vocabulary page of database/docs is what `go generate` writes now:
// the test writes it again the same way, from a directory as deep as
// this one, and compares every file.
func TestVocabularyPage_Current(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "cmd", "dbctl")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	want := map[string][]byte{}
	for _, name := range []string{"README.md", "database.md"} {
		b, err := os.ReadFile(filepath.Join("../../database/docs", name))
		if err != nil {
			t.Fatal(err)
		}
		want[name] = b
	}
	t.Chdir(dir)
	if code, out, errOut := run(t, "vocab", "-out", "../../database/docs"); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	got, err := os.ReadDir(filepath.Join(root, "database", "docs"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Errorf("vocab writes %d files, database/docs holds %d", len(got), len(want))
	}
	for name, w := range want {
		g, err := os.ReadFile(filepath.Join(root, "database", "docs", name))
		if err != nil || !bytes.Equal(g, w) {
			t.Errorf("database/docs/%s is stale (%v): run go generate ./cmd/dbctl in examples", name, err)
		}
	}
}
