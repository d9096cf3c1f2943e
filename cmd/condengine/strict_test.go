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

// Two keys that differ only in case set one field (encoding/json
// ignores case when it matches a key to a field), so they are a key
// given twice as well, named by field, spelling and line, for every
// command that reads manifests, scenarios or answers. Keys of labels
// are the author's: App and app are two labels.
func TestCommands_RefuseAFieldGivenTwiceInAnotherCase(t *testing.T) {
	dir := t.TempDir()
	binding := filepath.Join(dir, "binding.json")
	writeFile(t, binding, "{\"apiVersion\": \"agentkourier.dev/v1alpha1\",\n \"kind\": \"Binding\",\n \"metadata\": {\"namespace\": \"a\", \"name\": \"b\"},\n \"Kind\": \"AgentBackend\"}\n")
	nested := filepath.Join(dir, "nested.yaml")
	writeFile(t, nested, "apiVersion: agentkourier.dev/v1alpha1\nkind: Binding\nmetadata:\n  namespace: a\n  name: b\nspec:\n  agent:\n    backendRef: {name: x}\n  chat:\n    connectionRef: {name: c}\n    channel: C1\n  Agent:\n    backendRef: {name: y}\n")
	scen := filepath.Join(dir, "scenario.yaml")
	writeFile(t, scen, "name: a\nsystem: binding\nnow: \"2026-11-30T10:00:00Z\"\nSystem: finops\nexpect: []\n")
	const why = "; field names are matched without regard to case, so both keys set "
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", "-f", binding, "-now", fixedNow}, binding + `: document 1, line 4: kind: given on line 2 as "kind" and again on line 4 as "Kind"` + why + "kind"},
		{[]string{"explain", "-f", binding, "-now", fixedNow}, binding + `: document 1, line 4: kind: given on line 2 as "kind" and again on line 4 as "Kind"`},
		{[]string{"eval", "-f", nested, "-now", fixedNow}, nested + `: document 1 (Binding a/b), line 12: spec.agent: given on line 7 as "agent" and again on line 12 as "Agent"` + why + "agent"},
		{[]string{"eval", "-f", scen}, scen + `: document 1, line 4: system: given on line 2 as "system" and again on line 4 as "System"`},
		{[]string{"check", scen}, scen + `: document 1, line 4: system: given on line 2 as "system" and again on line 4 as "System"`},
		{[]string{"conform", "--replay", scen, "--exec", "true"}, scen + `: document 1, line 4: system: given on line 2 as "system" and again on line 4 as "System"`},
	} {
		t.Run(strings.Join(tc.args[:2], " "), func(t *testing.T) {
			code, stdout, stderr := run(t, "", tc.args...)
			if code == exitOK {
				t.Fatalf("exit %d; want a failure\n%s", code, stdout)
			}
			containsAll(t, stdout+stderr, tc.want)
		})
	}

	labels := filepath.Join(dir, "labels.yaml")
	writeFile(t, labels, "apiVersion: agentkourier.dev/v1alpha1\nkind: AgentBackend\nmetadata:\n  namespace: a\n  name: b\n  labels: {App: one, app: two}\nspec: {url: \"https://echo.a.svc:8443\"}\n")
	if code, stdout, stderr := run(t, "", "eval", "-f", labels, "-now", fixedNow); code != exitOK {
		t.Fatalf("labels App and app: exit %d\n%s%s", code, stdout, stderr)
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

// What a probe cannot have observed, and a limit of zero or less, is
// refused by eval as by check, naming the field and its line.
func TestEvalAndCheck_RefuseImpossibleScenarioValues(t *testing.T) {
	const head = "name: a\nsystem: binding\nnow: \"2026-11-30T10:00:00Z\"\nexpect: []\n"
	for block, want := range map[string]string{
		"probes:\n- {binding: a/b, generation: -1}\n":                                        "line 6: scenario: probes[0].generation: -1 must not be negative",
		"probes:\n- {binding: a/b, generation: 1, backend: {http: 200, cardBytes: -5}}\n":    "line 6: scenario: probes[0].backend.cardBytes: -5 must not be negative",
		"probes:\n- binding: a/b\n  generation: 1\n  channel: {http: -429}\n":                "line 8: scenario: probes[0].channel.http: -429 is not an HTTP status",
		"probes:\n- {binding: a/b, generation: 1, channel: {http: 429, retryAfter: 1e20}}\n": "line 6: probes[0].channel.retryAfter: must be a whole number no larger than 9223372036854775807, and 1e20 (100000000000000000000) is larger",
		"prober:\n  limits: {concurrency: 0}\n":                                              "line 6: scenario: prober.limits.concurrency: 0 must be at least 1",
		"writer:\n  limits:\n    quiet: -5s\n":                                               "line 7: scenario: writer.limits.quiet: -5s must be positive",
	} {
		path := filepath.Join(t.TempDir(), "s.yaml")
		writeFile(t, path, head+block)
		for _, args := range [][]string{{"eval", "-f", path}, {"check", path}} {
			code, out, errs := run(t, "", args...)
			if code == exitOK {
				t.Errorf("%s %q: exit %d; want a failure", args[0], block, code)
			}
			containsAll(t, out+errs, path+": document 1, "+want)
		}
	}
}

// A line of garbage given to check, however long, is said to be text and
// not a scenario, at its line, in words rather than in Go's.
func TestCheck_GarbageLineIsNamedInWords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "garbage.txt")
	writeFile(t, path, strings.Repeat("q7Zx", (10<<20)/4)+"\n")
	code, out, errs := run(t, "", "check", path)
	if code == exitOK {
		t.Fatalf("exit %d", code)
	}
	containsAll(t, out+errs, path+": document 1, line 1: scenario: the file holds a single string, not a mapping of keys")
	if strings.Contains(out+errs, "Go value") || strings.Contains(out+errs, "scenario.File") {
		t.Errorf("Go's terms in %q", out+errs)
	}
}
