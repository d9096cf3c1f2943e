package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// A key given twice is an error naming both lines, for every command
// that reads manifests or scenarios: a JSON kind given twice would turn
// a Binding into an AgentBackend, a second system: key would run a
// scenario as the other system.
func TestCommands_RefuseAKeyGivenTwice(t *testing.T) {
	dir := t.TempDir()
	binding := filepath.Join(dir, "binding.json")
	writeFile(t, binding, "{\"apiVersion\": \"agentkourier.dev/v1alpha1\",\n \"kind\": \"Binding\",\n \"metadata\": {\"namespace\": \"a\", \"name\": \"b\"},\n \"kind\": \"AgentBackend\"}\n")
	scen := filepath.Join(dir, "scenario.yaml")
	writeFile(t, scen, "name: a\nsystem: binding\nnow: \"2026-11-30T10:00:00Z\"\nsystem: finops\nexpect: []\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", "-f", binding, "-now", fixedNow}, binding + ": document 1, line 4: kind: given on line 2 and again on line 4"},
		{[]string{"explain", "-f", binding, "-now", fixedNow}, binding + ": document 1, line 4: kind: given on line 2 and again on line 4"},
		{[]string{"eval", "-f", scen}, scen + ": document 1, line 4: system: given on line 2 and again on line 4"},
		{[]string{"explain", "-f", scen}, scen + ": document 1, line 4: system: given on line 2 and again on line 4"},
		{[]string{"check", scen}, scen + ": document 1, line 4: system: given on line 2 and again on line 4"},
		{[]string{"conform", "--replay", scen, "--exec", "true"}, scen + ": document 1, line 4: system: given on line 2 and again on line 4"},
	} {
		t.Run(strings.Join(tc.args[:2], " "), func(t *testing.T) {
			code, stdout, stderr := run(t, "", tc.args...)
			if code == exitOK {
				t.Fatalf("exit %d; want a failure\n%s", code, stdout)
			}
			containsAll(t, stdout+stderr, tc.want)
		})
	}
}

// A List whose items are null or missing is refused as an empty input
// is, by eval and explain alike.
func TestCommands_RefuseAListWithoutItems(t *testing.T) {
	for _, in := range []string{"apiVersion: v1\nkind: List\nitems: null\n", "apiVersion: v1\nkind: List\nitems:\n"} {
		for _, cmd := range []string{"eval", "explain"} {
			code, _, stderr := run(t, in, cmd, "-f", "-", "-now", fixedNow)
			if code == exitOK {
				t.Errorf("%s %q: exit %d; want a failure", cmd, in, code)
			}
			containsAll(t, stderr, "stdin: document 1 (List), line 3: items: null or missing")
		}
	}
}
