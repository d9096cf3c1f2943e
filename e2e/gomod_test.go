package e2e_test

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// requires reads the required module versions of a go.mod file.
func requires(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer func() { _ = f.Close() }()
	out := map[string]string{}
	inBlock := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "require (":
			inBlock = true
			continue
		case inBlock && line == ")":
			inBlock = false
			continue
		case strings.HasPrefix(line, "require "):
			line = strings.TrimPrefix(line, "require ")
		case !inBlock:
			continue
		}
		if fields := strings.Fields(line); len(fields) >= 2 {
			out[fields[0]] = fields[1]
		}
	}
	require.NoError(t, sc.Err())
	return out
}

// TestGoMod_SameVersionsAsTools: every module both e2e/go.mod and
// tools/go.mod require is at the same version in both, so the test
// binaries, built with -trimpath like kube-apiserver, reuse its compiled
// packages; a drift makes a cold run minutes longer without failing it.
func TestGoMod_SameVersionsAsTools(t *testing.T) {
	e2e := requires(t, "go.mod")
	tools := requires(t, "tools/go.mod")
	var drift []string
	for mod, v := range e2e {
		// The staging modules are replaced in tools/go.mod; their required
		// version there is a placeholder.
		if tv, ok := tools[mod]; ok && tv != v && tv != "v0.0.0" {
			drift = append(drift, mod+": e2e "+v+", tools "+tv)
		}
	}
	require.Empty(t, drift)
	require.NotEmpty(t, e2e["k8s.io/client-go"], "the parser read e2e/go.mod")
	require.NotEmpty(t, tools["k8s.io/kubernetes"], "the parser read tools/go.mod")
}
