package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A misspelt verb is answered with the verb it is closest to; a word
// close to none gets the usage alone.
func TestRun_UnknownCommand_DidYouMean(t *testing.T) {
	code, _, errs := run(t, "", "evla")
	if code != exitUsage || !strings.Contains(errs, `unknown command "evla"; did you mean "eval"?`) {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
	_, _, errs = run(t, "", "frobnicate")
	if strings.Contains(errs, "did you mean") {
		t.Fatalf("a suggestion for a word close to no verb: %q", errs)
	}
}

// explain names an object as kubectl does, and as it did before: every
// spelling below selects team-a/late and nothing else.
func TestExplain_KubectlArguments(t *testing.T) {
	_, want, _ := run(t, "", "explain", "-f", demoDir+"/binding.yaml", "Binding", "team-a/late")
	if !strings.HasPrefix(want, "Binding team-a/late\n") || strings.Count(want, "\nBinding ") != 0 {
		t.Fatalf("the reference output is not team-a/late alone:\n%s", want)
	}
	for _, args := range [][]string{
		{"Binding", "late", "-n", "team-a"},
		{"akbinding", "late", "--namespace", "team-a"},
		{"bindings", "team-a/late"},
		{"bindings.agentkourier.dev", "late", "-n", "team-a"},
		{"-n", "team-a", "binding/late"},
		{"AKBINDINGS", "team-a/late", "-n", "team-a"},
	} {
		code, out, errs := run(t, "", append([]string{"explain", "-f", demoDir + "/binding.yaml"}, args...)...)
		if code != exitOK || out != want {
			t.Errorf("explain %v: code %d, stderr %q, stdout:\n%s", args, code, errs, out)
		}
	}
}

func TestExplain_NamespaceAlone(t *testing.T) {
	code, out, errs := run(t, "", "explain", "-f", demoDir+"/binding.yaml", "-n", "team-b")
	if code != exitOK {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
	objects := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.HasPrefix(line, " ") {
			continue // a condition or its evidence, which may name team-a
		}
		objects++
		if !strings.HasPrefix(line, "Binding team-b/") {
			t.Errorf("object %q is not of team-b", line)
		}
	}
	if objects == 0 {
		t.Fatalf("no object of team-b:\n%s", out)
	}
	code, _, errs = run(t, "", "explain", "-f", demoDir+"/binding.yaml", "-n", "nowhere")
	if code != exitFail || !strings.Contains(errs, "no object in namespace nowhere of "+demoDir+"/binding.yaml") {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
}

func TestExplain_ArgumentErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bindng", "late"}, `unknown kind "bindng" (did you mean "binding"?)`},
		{[]string{"AgentBackend", "echo"}, "kinds with conditions: Binding, PriceBook, Offering, Subscription"},
		{[]string{"binding", "team-a/late", "-n", "team-b"}, `"team-a/late" names namespace team-a, -n says team-b`},
		{[]string{"binding", "a/b/c"}, `not "a/b/c"`},
		{[]string{"binding/"}, `name the object as KIND NAME or KIND/NAME, not "binding/"`},
		{[]string{"binding", "late", "extra"}, "at most KIND and NAME, got 3 arguments"},
	} {
		code, _, errs := run(t, "", append([]string{"explain", "-f", demoDir + "/binding.yaml"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("explain %v: code %d, stderr %q, want %q", tc.args, code, errs, tc.want)
		}
	}
}

// eval reading a terminal says how to end the input; a pipe or a file
// gets no such word.
func TestEval_TerminalHint(t *testing.T) {
	manifest, err := os.ReadFile(demoDir + "/binding.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const hint = "reading manifests from the terminal; end with Ctrl-D"
	saved := stdinIsTerminal
	defer func() { stdinIsTerminal = saved }()
	stdinIsTerminal = func(r io.Reader) bool { return true }

	code, _, errs := run(t, string(manifest), "eval", "-now", fixedNow)
	if code != exitOK || !strings.Contains(errs, hint) {
		t.Fatalf("at a terminal: code %d, stderr %q", code, errs)
	}
	code, _, errs = run(t, "", "eval", "-f", demoDir+"/binding.yaml", "-now", fixedNow)
	if code != exitOK || strings.Contains(errs, hint) {
		t.Fatalf("with -f: code %d, stderr %q", code, errs)
	}
	stdinIsTerminal = saved
	code, _, errs = run(t, string(manifest), "eval", "-now", fixedNow)
	if code != exitOK || strings.Contains(errs, hint) {
		t.Fatalf("from a pipe: code %d, stderr %q", code, errs)
	}
}

// check given a manifest stream says so and points to eval.
func TestCheck_ManifestStreamPointsToEval(t *testing.T) {
	p := filepath.Join(t.TempDir(), "stream.yaml")
	one := "apiVersion: agentkourier.dev/v1alpha1\nkind: Binding\nmetadata: {name: a, namespace: b}\n"
	if err := os.WriteFile(p, []byte(one+"---\n"+one), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := run(t, "", "check", p)
	containsAll(t, out, "not a scenario", "condengine eval -f "+p)
	if code != exitFail || strings.Contains(out, "holds one document") {
		t.Fatalf("code %d:\n%s", code, out)
	}
}
