package conformance_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// Only test helpers (*test packages), conformance, scenario and the
// commands may link package testing: a host that imports an engine
// package must not get it. The check follows imports transitively.
func TestOnlyTestPackagesLinkTesting(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list over the module")
	}
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Deps " "}}`, "github.com/condengine/condengine/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const module = "github.com/condengine/condengine/"
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], module)
		if allowedToLinkTesting(pkg) {
			continue
		}
		checked++
		if slices.Contains(fields[1:], "testing") {
			t.Errorf("%s links package testing", pkg)
		}
	}
	if checked < 10 {
		t.Fatalf("checked only %d packages", checked)
	}
}

func allowedToLinkTesting(pkg string) bool {
	first, _, _ := strings.Cut(pkg, "/")
	last := pkg[strings.LastIndex(pkg, "/")+1:]
	return strings.HasSuffix(last, "test") || first == "conformance" || first == "scenario" || first == "cmd"
}
