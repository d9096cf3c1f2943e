package cli

import (
	"os"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// onlyWith skips t unless the environment variable env is set; what says
// what setting it runs, for the skip message.
func onlyWith(t *testing.T, env, what string) {
	t.Helper()
	if os.Getenv(env) == "" {
		t.Skipf("set %s=1 to %s", env, what)
	}
}

// containsAll fails t once for each of wants that out lacks.
func containsAll(t *testing.T, out string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
