package cli

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/redact"
	"github.com/condengine/condengine/scenario"
)

// TestMain lets the test binary stand in for the command and for
// implementations under test: with CONDENGINE_TEST_AS=command it runs
// condengine with its arguments; with CONDENGINE_TEST_AS=fake it is the
// misbehaving implementation its first argument names.
func TestMain(m *testing.M) {
	switch os.Getenv("CONDENGINE_TEST_AS") {
	case "command":
		os.Exit(seedCmd.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	case "fake":
		os.Exit(fake(os.Args[1], os.Args[2]))
	}
	os.Exit(m.Run())
}

// fake answers requests of system as the engine does, except as
// behaviour says.
func fake(behaviour, system string) int {
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	disagreedAt := 0
	for n := 1; ; n++ {
		line, err := readLine(in, scenario.MaxFileBytes)
		if err != nil {
			return 0
		}
		id, f, err := conformance.DecodeRequest(line, system)
		if err != nil || id == nil {
			fmt.Fprintln(os.Stderr, "no id or", err)
			return 4
		}
		objs, err := conformance.Reference(seedCmd.find(system))(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 4
		}
		switch behaviour {
		case "refuses":
			if n == 2 {
				out, _ := conformance.EncodeReply(*id, nil, errors.New("cannot read -> this"))
				fmt.Println(string(out))
				continue
			}
		case "extra-line":
			if n == 2 {
				out, _ := conformance.EncodeReply(*id, objs, nil)
				fmt.Println(string(out)) // the same answer twice
			}
		case "null":
			fmt.Println("null")
			continue
		case "pretty":
			fmt.Println("{\n  \"objects\": []\n}")
			continue
		case "no-message":
			if n == 1 {
				fmt.Printf(`{"id":%d,"objects":[{"kind":"Binding","namespace":"a","name":"b","conditions":[{"type":"Ready","status":"True","reason":"OK","lastTransitionTime":"2026-11-30T10:00:00Z"}]}]}`+"\n", *id)
				continue
			}
		case "reversed":
			for i := range objs {
				slices.Reverse(objs[i].Conditions)
			}
		case "always-writes":
			if n == 1 {
				fmt.Println(`{"capabilities":["write"]}`)
			}
			for i := range objs {
				yes := true
				objs[i].Write = &yes
			}
		case "malformed":
			fmt.Println(`{"objects": [`)
			continue
		case "two-values":
			fmt.Println(`{"objects":[]} {"objects":[]}`)
			continue
		case "key-twice":
			fmt.Printf(`{"id":%d,"objects":[],"objects":[]}`+"\n", *id)
			continue
		case "key-case":
			fmt.Printf(`{"id":%d,"objects":[{"kind":"Binding","namespace":"a","name":"b","conditions":[{"type":"Ready","Type":"Accepted","status":"True","reason":"OK","message":"","lastTransitionTime":"2026-11-30T10:00:00Z"}]}]}`+"\n", *id)
			continue
		case "unknown-key":
			fmt.Println(`{"objects":[],"verdict":"ok"}`)
			continue
		case "silent":
			time.Sleep(time.Minute)
		case "crash":
			if n == 3 {
				fmt.Fprintln(os.Stderr, "panic: boom")
				return 3
			}
		case "drops-last":
			// The wrong object count: the last object is left out.
			if len(objs) > 0 {
				objs = objs[:len(objs)-1]
			}
		case "renames", "renames-then-crash":
			if behaviour == "renames-then-crash" && disagreedAt > 0 && n == disagreedAt+2 {
				fmt.Fprintf(os.Stderr, "panic: boom on request %d\n", n)
				return 3
			}
			for i := range objs {
				for j := range objs[i].Conditions {
					if objs[i].Conditions[j].Reason == "ChannelConflict" {
						objs[i].Conditions[j].Reason = "ChannelTaken"
						disagreedAt = cmp.Or(disagreedAt, n)
					}
				}
			}
		}
		out, _ := conformance.EncodeReply(*id, objs, nil)
		fmt.Println(string(out))
	}
}

func self(t *testing.T) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return "'" + strings.ReplaceAll(exe, "'", `'\''`) + "'"
}

func asCommand(t *testing.T, args string) string {
	return "CONDENGINE_TEST_AS=command " + self(t) + " " + args
}

func asFake(t *testing.T, behaviour, system string) string {
	return "CONDENGINE_TEST_AS=fake " + self(t) + " " + behaviour + " " + system
}

// The engine's own reference passes conform on 500 snapshots per system.
func TestConform_SelfConformance500PerSystem(t *testing.T) {
	for _, sys := range []string{"binding", "finops"} {
		t.Run(sys, func(t *testing.T) {
			start := time.Now()
			code, out, errs := run(t, "", "conform", "--system", sys, "--exec", asCommand(t, "reference --system "+sys), "--runs", "500")
			if code != exitOK {
				t.Fatalf("code %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
			}
			// The verdict, what was compared (the reference declares every
			// decision key on its capabilities line), then the coverage.
			want := "500 " + sys + " snapshots (seeds 0 to 499): the implementation agrees with the engine on every one\n" +
				"compared: conditions and status fields; condition order; decisions write, removeFinalizer, retryAt\n" +
				"rules reached: "
			if !strings.HasPrefix(out, want) {
				t.Errorf("stdout %q, want it to begin %q", out, want)
			}
			t.Logf("500 %s snapshots in %v", sys, time.Since(start))
		})
	}
}

// A planted mutation is caught, shrunk to a handful of objects, printed
// and written as a scenario `check` passes.
func TestConform_RenamedReason_ShrunkCounterexample(t *testing.T) {
	out := filepath.Join(t.TempDir(), "cx.yaml")
	code, stdout, errs := run(t, "", "conform", "--system", "binding", "--exec", asFake(t, "renames", "binding"), "--runs", "200", "--out", out)
	if code != exitFail {
		t.Fatalf("code %d, stderr %q\n%s", code, errs, stdout)
	}
	for _, want := range []string{"FAIL request ", "disagrees with the engine; shrunk from ",
		`conditions[Accepted].reason: want "ChannelConflict", got "ChannelTaken"`, "--- written to " + out} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	f, err := scenario.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Objects) > 5 {
		t.Errorf("counterexample has %d objects, more than a handful", len(f.Objects))
	}
	if code, cout, _ := run(t, "", "check", out); code != exitOK {
		t.Errorf("check fails the engine's own counterexample:\n%s", cout)
	}
}

// The wrong number of objects is a disagreement, shrunk like any other.
func TestConform_WrongObjectCount(t *testing.T) {
	code, stdout, errs := run(t, "", "conform", "--system", "finops", "--exec", asFake(t, "drops-last", "finops"), "--runs", "50")
	if code != exitFail || !strings.Contains(stdout, "disagrees with the engine") || !strings.Contains(stdout, ": want listed, got (absent)") {
		t.Fatalf("code %d, stderr %q\n%s", code, errs, stdout)
	}
}

func TestConform_ProtocolErrorsNameTheRequest(t *testing.T) {
	for _, tc := range []struct {
		behaviour, args, want string
	}{
		{"malformed", "", "FAIL request 1 (seed 0): the implementation stopped answering: request 1: malformed answer: not an answer: unexpected EOF"},
		{"two-values", "", "request 1: malformed answer: not an answer: more than one JSON value on the line"},
		{"unknown-key", "", `request 1: malformed answer: not an answer: json: unknown field "verdict"`},
		{"key-twice", "", "request 1: malformed answer: objects: given twice on line 1 (columns "},
		{"key-case", "", `request 1: malformed answer: not an answer: objects[0]: conditions[0].type: given twice, as "type" and as "Type"`},
		{"silent", "--timeout=300ms --start-timeout=0s", "FAIL request 1 (seed 0): the implementation stopped answering: request 1: no answer within 300ms"},
		{"crash", "", "FAIL request 3 (seed 2): the implementation stopped answering: request 3: the command ended its output without answering (it exited with status 3); its stderr ends with: panic: boom"},
	} {
		t.Run(tc.behaviour, func(t *testing.T) {
			args := []string{"conform", "--system", "binding", "--exec", asFake(t, tc.behaviour, "binding"), "--runs", "5"}
			args = append(args, strings.Fields(tc.args)...)
			start := time.Now()
			code, stdout, errs := run(t, "", args...)
			if code != exitFail || !strings.Contains(stdout, tc.want) {
				t.Fatalf("code %d, stderr %q, stdout lacks %q:\n%s", code, errs, tc.want, stdout)
			}
			if !strings.Contains(stdout, "--- scenario (the engine's answer as expect) ---\nname: ") {
				t.Errorf("the failing request is not shown:\n%s", stdout)
			}
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

// A command that crashes on a request the shrinker sent is reported on
// that request, the one the error names.
func TestConform_CrashWhileShrinkingNamesThatRequest(t *testing.T) {
	code, stdout, errs := run(t, "", "conform", "--system", "binding", "--exec", asFake(t, "renames-then-crash", "binding"), "--runs", "200")
	m := regexp.MustCompile(`FAIL request (\d+) \(seed \d+\): the implementation stopped answering: request (\d+): .*panic: boom on request (\d+)`).FindStringSubmatch(stdout)
	if code != exitFail || m == nil {
		t.Fatalf("code %d, stderr %q\n%s", code, errs, stdout)
	}
	if m[1] != m[3] || m[2] != m[3] {
		t.Errorf("the command broke on request %s, the report says %s and %s:\n%s", m[3], m[1], m[2], stdout)
	}
	if !strings.Contains(stdout, "name: \"the request the implementation failed on: binding snapshot, seed ") {
		t.Errorf("the failing request is not shown:\n%s", stdout)
	}
}

func TestConform_NonZeroExitBeforeAnswering(t *testing.T) {
	code, stdout, _ := run(t, "", "conform", "--system", "binding", "--exec", "exit 7", "--runs", "3")
	if code != exitFail || !strings.Contains(stdout, "request 1: the command ended its output without answering (it exited with status 7)") ||
		!strings.Contains(stdout, "name: \"the request the implementation failed on: binding snapshot, seed 0\"") {
		t.Fatalf("code %d\n%s", code, stdout)
	}
}

func TestConform_UsageErrors_Exit2(t *testing.T) {
	for name, args := range map[string][]string{
		"no system":     {"conform", "--exec", "true"},
		"bad system":    {"conform", "--system", "cooking", "--exec", "true"},
		"no exec":       {"conform", "--system", "binding"},
		"zero runs":     {"conform", "--system", "binding", "--exec", "true", "--runs", "0"},
		"extra arg":     {"conform", "--system", "binding", "--exec", "true", "x"},
		"unknown flag":  {"conform", "--sytem", "binding"},
		"ref no system": {"reference"},
	} {
		t.Run(name, func(t *testing.T) {
			if code, _, _ := run(t, "", args...); code != exitUsage {
				t.Errorf("code %d, want %d", code, exitUsage)
			}
		})
	}
}

func TestReference_AnswersEachLine(t *testing.T) {
	// The first generated snapshot with at least three Bindings.
	var f *scenario.File
	for seed := 0; ; seed++ {
		var err error
		if f, err = conformance.Generate(seedCmd.find("binding"), seed); err != nil {
			t.Fatal(err)
		}
		if objs, _ := conformance.Reference(seedCmd.find("binding"))(f); len(objs) >= 3 {
			break
		}
	}
	first, err := conformance.EncodeRequest(1, f)
	if err != nil {
		t.Fatal(err)
	}
	second, _ := conformance.EncodeRequest(2, f)
	code, out, errs := run(t, string(first)+"\n\n"+string(second), "reference", "--system", "binding")
	if code != exitOK {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	// The capabilities line, then one answer per request.
	if len(lines) != 3 || lines[0] != `{"capabilities":["write","removeFinalizer","retryAt"]}` {
		t.Fatalf("%d lines:\n%s", len(lines), out)
	}
	lines = lines[1:]
	if !strings.HasPrefix(lines[0], `{"id":1,`) || strings.Replace(lines[1], `{"id":2,`, `{"id":1,`, 1) != lines[0] {
		t.Fatalf("%d answer lines:\n%s", len(lines), out)
	}
	got, err := conformance.DecodeAnswer([]byte(lines[0]))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := conformance.Reference(seedCmd.find("binding"))(f)
	if d := conformance.Compare(want, got); len(d) > 0 || len(got) == 0 {
		t.Fatalf("%d objects, differences %v", len(got), d)
	}
}

func TestReference_RefusesABadRequest(t *testing.T) {
	f, _ := conformance.Generate(seedCmd.find("finops"), 1)
	req, _ := conformance.Request(f)
	for name, tc := range map[string]struct{ stdin, want string }{
		"not json":     {"{\n", "request 1: "},
		"other system": {string(req) + "\n", `request 1: the request's system is "finops", not "binding"`},
		"expect":       {`{"name":"x","system":"binding","now":"2026-11-30T10:00:00Z","expect":[{"kind":"Binding","name":"a"}]}` + "\n", "request 1: a request carries no expect"},
		"second line":  {`{"id":1,"name":"x","system":"binding","now":"2026-11-30T10:00:00Z"}` + "\nnope\n", "request 2: "},
		"no id":        {`{"name":"x","system":"binding","now":"2026-11-30T10:00:00Z"}` + "\n", `request 1: the request has no "id": every request carries an integer id, which its answer echoes`},
		"id twice":     {`{"name":"x","id":1,"system":"binding","id":2,"now":"2026-11-30T10:00:00Z"}` + "\n", "request 1: id: given twice (columns 13 and 39); a request has one id"},
		"id not int":   {`{"id":1.5,"name":"x","system":"binding","now":"2026-11-30T10:00:00Z"}` + "\n", "request 1: id 1.5 is not an integer from -2^63 to 2^63-1"},
		"now zero":     {`{"id":1,"name":"x","system":"binding","now":"0001-01-01T00:00:00Z"}` + "\n", `request 1: document 1, line 1: scenario: now: "0001-01-01T00:00:00Z" is the zero time, which stands for no instant`},
		"now null":     {`{"id":1,"name":"x","system":"binding","now":null}` + "\n", `request 1: document 1, line 1: scenario: now: null is not an instant`},
		"now left out": {`{"id":1,"name":"x","system":"binding"}` + "\n", `request 1: document 1, line 1: scenario: now is required`},
		"key twice":    {`{"name":"x","system":"binding","now":"2026-11-30T10:00:00Z","system":"finops"}` + "\n", "request 1: scenario: document 1, line 1: system: given twice on line 1 (columns 13 and 61)"},
		"key case":     {`{"name":"x","system":"binding","now":"2026-11-30T10:00:00Z","System":"finops"}` + "\n", `request 1: document 1, line 1: system: given twice on line 1, as "system" and as "System"`},
	} {
		t.Run(name, func(t *testing.T) {
			code, _, errs := run(t, tc.stdin, "reference", "--system", "binding")
			if code != exitFail || !strings.Contains(errs, tc.want) {
				t.Fatalf("code %d, stderr %q lacks %q", code, errs, tc.want)
			}
		})
	}
}

// Each way an answer can go wrong is reported as what it is, with the
// line quoted where it is not an answer.
func TestConform_ReportsSayWhatWentWrong(t *testing.T) {
	for _, tc := range []struct {
		behaviour string
		args      []string
		want      []string
	}{
		{"refuses", nil, []string{"FAIL request 2 (seed 1): the implementation refused the request: cannot read -> this; shrunk from "}},
		{"extra-line", nil, []string{"FAIL request 3 (seed 2): the implementation stopped answering: request 3: the answer carries id 2, not the request's 3: the command answered a request twice or printed an extra line"}},
		{"null", nil, []string{"request 1: malformed answer: not an answer: the answer is null", `the line begins "null"`}},
		{"pretty", nil, []string{"request 1: malformed answer: not an answer: unexpected EOF", "(an answer is one line of JSON: was it pretty-printed over several lines?)"}},
		{"no-message", []string{"--only", "Binding"}, []string{"Binding a/b: conditions[0].message: the API server refuses this status: Required value: the key is missing"}},
		{"reversed", nil, []string{": conditions (order): want "}},
		{"always-writes", nil, []string{": write: want false, got true"}},
	} {
		t.Run(tc.behaviour, func(t *testing.T) {
			args := append([]string{"conform", "--system", "binding", "--exec", asFake(t, tc.behaviour, "binding"), "--runs", "30"}, tc.args...)
			code, stdout, errs := run(t, "", args...)
			if code != exitFail {
				t.Fatalf("code %d, stderr %q\n%s", code, errs, stdout)
			}
			for _, w := range tc.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout)
				}
			}
		})
	}
	// Order is not compared when the user says so.
	code, stdout, _ := run(t, "", "conform", "--system", "binding", "--exec", asFake(t, "reversed", "binding"), "--runs", "30", "--strict-order=false")
	if code != exitOK || !strings.Contains(stdout, "condition order ignored (--strict-order=false)") {
		t.Errorf("code %d\n%s", code, stdout)
	}
}

// The counterexample file holds the differences and the wrong answer as
// comments, and --replay re-runs it against any command.
func TestConform_OutFileAndReplay(t *testing.T) {
	out := filepath.Join(t.TempDir(), "cx.yaml")
	code, stdout, _ := run(t, "", "conform", "--system", "binding", "--exec", asFake(t, "renames", "binding"), "--runs", "200", "--out", out)
	if code != exitFail {
		t.Fatalf("code %d\n%s", code, stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"\n# differences (want is the engine's, got the implementation's):\n#   Binding ",
		`want "ChannelConflict", got "ChannelTaken"`, "\n# the implementation's answer:\n#   {\"objects\":["} {
		if !strings.Contains(string(data), w) {
			t.Errorf("the file lacks %q:\n%s", w, data)
		}
	}
	code, stdout, errs := run(t, "", "conform", "--replay", out, "--exec", asFake(t, "renames", "binding"))
	if code != exitFail || !strings.Contains(stdout, "FAIL "+out+" disagrees with the engine:\n") || !strings.Contains(stdout, `got "ChannelTaken"`) {
		t.Errorf("replay of the wrong implementation: code %d, stderr %q\n%s", code, errs, stdout)
	}
	code, stdout, errs = run(t, "", "conform", "--replay", out, "--exec", asCommand(t, "reference --system binding"))
	if code != exitOK || stdout != out+": the implementation agrees with the engine\n" {
		t.Errorf("replay of the reference: code %d, stderr %q\n%s", code, errs, stdout)
	}
}

// A seed range past the last int is refused, not wrapped.
func TestConform_SeedPastTheLastIsAUsageError(t *testing.T) {
	code, _, errs := run(t, "", "conform", "--system", "binding", "--exec", "true", "--seed", "9223372036854775807", "--runs", "2")
	if code != exitUsage || !strings.Contains(errs, "passes the last seed, 9223372036854775807") {
		t.Errorf("code %d, stderr %q", code, errs)
	}
}

// reference enforces the protocol's limits and names the one broken.
func TestReference_EnforcesTheProtocolLimits(t *testing.T) {
	ok := `{"name":"x","system":"binding","now":"2026-11-30T10:00:00Z"}`
	for name, tc := range map[string]struct{ stdin, want string }{
		"two objects": {ok + " " + ok + "\n", "request 1: the line holds more than one JSON value: exactly one object per line"},
		"not utf-8":   {"{\"name\":\"x\xff\",\"system\":\"binding\",\"now\":\"2026-11-30T10:00:00Z\"}\n", "request 1: the line is not valid UTF-8 (byte 11)"},
		"an array":    {"[1]\n", "request 1: the line is not one JSON object: it does not begin with {"},
		"too long":    {`{"id":1,` + ok[1:] + "\n" + `{"name":"` + strings.Repeat("a", 16<<20) + `"}` + "\n", "request 2: the line is over the protocol's limit of 16777216 bytes (16 MiB)"},
	} {
		t.Run(name, func(t *testing.T) {
			code, _, errs := run(t, tc.stdin, "reference", "--system", "binding")
			if code != exitFail || !strings.Contains(errs, tc.want) {
				t.Fatalf("code %d, stderr %q lacks %q", code, errs, tc.want)
			}
		})
	}
	// An id that is not one is named, not echoed whole.
	long := strings.Repeat("9", 2_000_000)
	code, _, errs := run(t, `{"id":`+long+`,"name":"x","system":"binding","now":"2026-11-30T10:00:00Z"}`+"\n", "reference", "--system", "binding")
	if want := "request 1: id " + long[:40] + "… (2000000 bytes) is not an integer from -2^63 to 2^63-1\n"; code != exitFail || !strings.HasSuffix(errs, want) {
		t.Errorf("code %d, stderr %q, want it to end %q", code, redact.Clip(errs, 300), want)
	}
	// Nor is any other long text of a request.
	code, _, errs = run(t, `{"id":1,"`+long+`":1,"name":"x","system":"binding","now":"2026-11-30T10:00:00Z"}`+"\n", "reference", "--system", "binding")
	if code != exitFail || len(errs) > 1200 || !strings.HasSuffix(errs, "…\n") || strings.Count(errs, "\n") != 1 {
		t.Errorf("code %d, %d bytes of stderr: %q", code, len(errs), redact.Clip(errs, 300))
	}
	// An id is echoed.
	code, out, errs := run(t, `{"id":7,"name":"x","system":"binding","now":"2026-11-30T10:00:00Z"}`+"\n", "reference", "--system", "binding")
	if code != exitOK || !strings.HasSuffix(out, "\n{\"id\":7,\"objects\":[]}\n") {
		t.Errorf("code %d, stderr %q\n%s", code, errs, out)
	}
}

// The Python PriceBook implementation under conformance/examples agrees
// with the engine on the subset it declares, and --only keeps the other
// kinds out of the comparison.
func TestConform_PythonExampleOnItsSubset(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	py := "python3 ../../conformance/examples/pricebook.py"
	code, stdout, errs := run(t, "", "conform", "--system", "finops", "--only", "PriceBook", "--exec", py, "--runs", "100")
	if code != exitOK || !strings.Contains(stdout, "compared: only PriceBook; condition order; no decisions (none declared)\n") {
		t.Fatalf("code %d, stderr %q\n%s", code, errs, stdout)
	}
	// Without --only, the kinds it does not answer for are missing.
	code, stdout, _ = run(t, "", "conform", "--system", "finops", "--exec", py, "--runs", "100")
	if code != exitFail || !strings.Contains(stdout, ": want listed, got (absent)") {
		t.Fatalf("code %d\n%s", code, stdout)
	}
	if code, _, errs := run(t, "", "conform", "--system", "finops", "--only", "Binding", "--exec", py); code != exitUsage || !strings.Contains(errs, `"Binding" is not a kind finops answers for`) {
		t.Errorf("code %d, stderr %q", code, errs)
	}
}

// --until-coverage stops once every reachable rule and decision outcome
// was reached N times, and --runs caps it.
func TestConform_UntilCoverage(t *testing.T) {
	code, stdout, errs := run(t, "", "conform", "--system", "binding", "--exec", asCommand(t, "reference --system binding"), "--until-coverage", "1", "--runs", "400")
	if code != exitOK {
		t.Fatalf("code %d, stderr %q\n%s", code, errs, stdout)
	}
	// Every reachable rule, however many the vocabulary has: a new rule
	// changes the count, not this test.
	m := regexp.MustCompile(`^(\d+) binding snapshots`).FindStringSubmatch(stdout)
	all := regexp.MustCompile(`(?m)^rules reached: (\d+) of (\d+)$`).FindStringSubmatch(stdout)
	decisions := regexp.MustCompile(`(?m)^decisions reached: (\d+) of (\d+)$`).FindStringSubmatch(stdout)
	if m == nil || m[1] == "400" || all == nil || all[1] != all[2] || all[1] == "0" ||
		decisions == nil || decisions[1] != decisions[2] || decisions[1] == "0" {
		t.Errorf("the run did not stop once every rule and decision outcome was reached:\n%s", stdout)
	}
}

// Progress shows on a terminal (here a pseudo-terminal made by script(1))
// and never in a pipe.
func TestConform_ProgressOnlyOnATerminal(t *testing.T) {
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("script(1) is not installed")
	}
	cmd := asCommand(t, "conform --system binding --exec "+shellQuote(asCommand(t, "reference --system binding"))+" --runs 150")
	out, err := exec.Command("script", "-qfc", cmd, "/dev/null").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), "\rconform: 1 of at most 150 snapshots compared") || !strings.Contains(string(out), "\r\x1b[K150 binding snapshots") {
		t.Errorf("no progress on a terminal:\n%q", out)
	}
	_, stdout, errs := run(t, "", "conform", "--system", "binding", "--exec", asCommand(t, "reference --system binding"), "--runs", "20")
	if strings.Contains(stdout+errs, "snapshots compared") {
		t.Errorf("progress written to a pipe:\n%s%s", stdout, errs)
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
