package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// A key given twice is an error naming both lines, for every command
// that reads manifests, scenarios or answers: a JSON kind given twice
// would turn a Binding into an AgentBackend, a second system: key would
// run a scenario as the other system. Two keys that differ only in case
// set one field too (encoding/json ignores case when it matches a key to
// a field), so they are a key given twice as well, named by field,
// spelling and line. Keys of labels are the author's: App and app are two
// labels.
func TestCommands_RefuseAKeyGivenTwice(t *testing.T) {
	dir := t.TempDir()
	file := func(name, data string) string {
		path := filepath.Join(dir, name)
		writeFile(t, path, data)
		return path
	}
	const jsonHead = "{\"apiVersion\": \"agentkourier.dev/v1alpha1\",\n \"kind\": \"Binding\",\n \"metadata\": {\"namespace\": \"a\", \"name\": \"b\"},\n "
	const scenHead = "name: a\nsystem: binding\nnow: \"2026-11-30T10:00:00Z\"\n"
	binding := file("binding.json", jsonHead+"\"kind\": \"AgentBackend\"}\n")
	scen := file("scenario.yaml", scenHead+"system: finops\nexpect: []\n")
	bindingCase := file("binding-case.json", jsonHead+"\"Kind\": \"AgentBackend\"}\n")
	nestedCase := file("nested-case.yaml", "apiVersion: agentkourier.dev/v1alpha1\nkind: Binding\nmetadata:\n  namespace: a\n  name: b\nspec:\n  agent:\n    backendRef: {name: x}\n  chat:\n    connectionRef: {name: c}\n    channel: C1\n  Agent:\n    backendRef: {name: y}\n")
	scenCase := file("scenario-case.yaml", scenHead+"System: finops\nexpect: []\n")
	const kindTwice = ": document 1, line 4: kind: given on line 2 and again on line 4"
	const systemTwice = ": document 1, line 4: system: given on line 2 and again on line 4"
	const kindCase = `: document 1, line 4: kind: given on line 2 as "kind" and again on line 4 as "Kind"`
	const systemCase = `: document 1, line 4: system: given on line 2 as "system" and again on line 4 as "System"`
	const why = "; field names are matched without regard to case, so both keys set "
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", "-f", binding, "-now", fixedNow}, binding + kindTwice},
		{[]string{"explain", "-f", binding, "-now", fixedNow}, binding + kindTwice},
		{[]string{"eval", "-f", scen}, scen + systemTwice},
		{[]string{"explain", "-f", scen}, scen + systemTwice},
		{[]string{"check", scen}, scen + systemTwice},
		{[]string{"conform", "--replay", scen, "--exec", "true"}, scen + systemTwice},

		{[]string{"eval", "-f", bindingCase, "-now", fixedNow}, bindingCase + kindCase + why + "kind"},
		{[]string{"explain", "-f", bindingCase, "-now", fixedNow}, bindingCase + kindCase},
		{[]string{"eval", "-f", nestedCase, "-now", fixedNow}, nestedCase + `: document 1 (Binding a/b), line 12: spec.agent: given on line 7 as "agent" and again on line 12 as "Agent"` + why + "agent"},
		{[]string{"eval", "-f", scenCase}, scenCase + systemCase},
		{[]string{"check", scenCase}, scenCase + systemCase},
		{[]string{"conform", "--replay", scenCase, "--exec", "true"}, scenCase + systemCase},
	} {
		name := tc.args[0]
		for _, a := range tc.args {
			if strings.HasPrefix(a, dir) {
				name += " " + filepath.Base(a)
			}
		}
		t.Run(name, func(t *testing.T) {
			refuses(t, tc.args, tc.want)
		})
	}

	labels := file("labels.yaml", "apiVersion: agentkourier.dev/v1alpha1\nkind: AgentBackend\nmetadata:\n  namespace: a\n  name: b\n  labels: {App: one, app: two}\nspec: {url: \"https://echo.a.svc:8443\"}\n")
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
		"probes:\n- {binding: a/b, generation: 1, channel: {http: 429, retryAfter: 1e20}}\n": "line 6: probes[0].channel.retryAfter: must be a whole number no larger than 9223372036854775807, and 1e20 is larger",
		"prober:\n  limits: {concurrency: 0}\n":                                              "line 6: scenario: prober.limits.concurrency: 0 must be at least 1",
		"writer:\n  limits:\n    quiet: -5s\n":                                               "line 7: scenario: writer.limits.quiet: -5s must be positive",
	} {
		path := filepath.Join(t.TempDir(), "s.yaml")
		writeFile(t, path, head+block)
		for _, args := range [][]string{{"eval", "-f", path}, {"check", path}} {
			refuses(t, args, path+": document 1, "+want)
		}
	}
}

// A line of garbage given to check, however long, is said to be text and
// not a scenario, at its line, in words rather than in Go's.
func TestCheck_GarbageLineIsNamedInWords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "garbage.txt")
	writeFile(t, path, strings.Repeat("q7Zx", (10<<20)/4)+"\n")
	out := refuses(t, []string{"check", path}, path+": document 1, line 1: scenario: the file holds a single string, not a mapping of keys")
	if strings.Contains(out, "Go value") || strings.Contains(out, "scenario.File") {
		t.Errorf("Go's terms in %q", out)
	}
}

// refuses runs the command with no input and fails t unless it exits
// with a failure whose stdout and stderr together hold each of wants; it
// returns the two together.
func refuses(t *testing.T, args []string, wants ...string) string {
	t.Helper()
	code, stdout, stderr := run(t, "", args...)
	if code == exitOK {
		t.Errorf("%q: exit %d; want a failure\n%s", args, code, stdout)
	}
	containsAll(t, stdout+stderr, wants...)
	return stdout + stderr
}
