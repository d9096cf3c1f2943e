package quickstart

import (
	"os"
	"strings"
	"testing"
)

// The README's quick start is this package's code, word for word, so
// what a user copies compiles and is the code the tests run.
func TestReadmeQuickStartIsThisCode(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("quickstart.go")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "## Quick start for an operator author")
	if !ok {
		t.Fatal("README has no quick start section")
	}
	_, rest, ok = strings.Cut(rest, "```go\n")
	if !ok {
		t.Fatal("the quick start has no Go block")
	}
	block, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatal("the quick start's Go block is not closed")
	}
	for _, want := range []string{"func (r *BindingReconciler) Reconcile(", "writeplan.For(", `FieldManager: "agent-kourier"`,
		"ctrlplan.Carry(", "v.RequeueAfter(now)", "MaxConcurrentReconciles: 1", "writeplan.Transitions(", "policy.DefaultLimits()"} {
		if !strings.Contains(block, want) {
			t.Errorf("the quick start does not show %s", want)
		}
	}
	if !strings.Contains(string(src), block) {
		t.Error("the README's quick start differs from examples/quickstart/quickstart.go: copy the file's code into it")
	}
}
