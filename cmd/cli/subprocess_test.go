package cli

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The built command, run as a user runs it: exit codes and streams as the
// shell sees them.
func TestBinary_ExitCodesAndOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := goBuild(t, "../condengine", "condengine")
	for _, tc := range []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stdout string
	}{
		{"demo", []string{"demo"}, "", 0, "Accepted:ChannelConflict"},
		{"check failing", []string{"check", cliData + "/check"}, "", 1, "1 passed, 1 failed\n"},
		{"check passing", []string{"check", demoDir}, "", 0, "2 passed, 0 failed\n"},
		{"usage", []string{}, "", 2, ""},
		{"eval stdin", []string{"eval", "-o", "json", "-now", fixedNow}, "apiVersion: agentkourier.dev/v1alpha1\nkind: Binding\nmetadata: {name: b, namespace: ns}\nspec: {agent: {backendRef: {name: echo}}, chat: {connectionRef: {name: slack}, channel: C1}}\n", 0, `"reason": "Accepted:BackendNotFound"`},
		{"eval bad yaml", []string{"eval"}, "kind: [\n", 1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, tc.args...)
			cmd.Stdin = strings.NewReader(tc.stdin)
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			err := cmd.Run()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr %q", code, tc.code, errb.String())
			}
			if !strings.Contains(out.String(), tc.stdout) {
				t.Errorf("stdout lacks %q:\n%s", tc.stdout, out.String())
			}
		})
	}
}

// goBuild builds the main package pkg into a temporary directory as name
// and returns the binary's path.
func goBuild(t *testing.T, pkg, name string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), name)
	if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin
}
