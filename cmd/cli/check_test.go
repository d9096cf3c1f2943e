package cli

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/condengine/condengine/scenario"
)

func TestCheck_DeliberatelyFailingScenario_ReportedWithDiffAndExit1(t *testing.T) {
	code, out, errs := run(t, "", "check", cliData+"/check")
	if code != exitFail {
		t.Fatalf("code %d, want %d; stderr %q", code, exitFail, errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if last := lines[len(lines)-1]; last != "1 passed, 1 failed" {
		t.Errorf("last line %q, want %q", last, "1 passed, 1 failed")
	}
	containsAll(t, out,
		"FAIL "+cliData+"/check/deliberately-failing.yaml: DELIBERATELY FAILING",
		"\n    Binding team-a/late:\n",
		"\n      conditions[0].reason: want \"OK\", got \"ChannelConflict\"\n",
		"\n      conditions[2]: want {type: \"ChannelJoined\", status: \"Unknown\", reason: \"Pending\"}, got (absent)\n",
	)
	for _, internal := range []string{"&1", "scenario.", "view{", "(-want +got)"} {
		if strings.Contains(out, internal) {
			t.Errorf("output shows Go internals %q:\n%s", internal, out)
		}
	}
	if strings.Contains(out, "connection-not-found.yaml") {
		t.Errorf("a passing scenario is listed without -v:\n%s", out)
	}
	golden(t, "check-failing.txt", out)
}

func TestCheck_Verbose_ListsPassingScenarios(t *testing.T) {
	_, out, _ := run(t, "", "check", "-v", cliData+"/check/connection-not-found.yaml")
	if !strings.HasPrefix(out, "ok   "+cliData+"/check/connection-not-found.yaml") || !strings.HasSuffix(out, "1 passed, 0 failed\n") {
		t.Fatalf("output:\n%s", out)
	}
}

func TestCheck_AllPass_Exit0(t *testing.T) {
	code, out, errs := run(t, "", "check", demoDir, cliData+"/check/connection-not-found.yaml")
	if code != exitOK || out != "3 passed, 0 failed\n" {
		t.Fatalf("code %d, stdout %q, stderr %q", code, out, errs)
	}
}

func TestCheck_MissingPath_Exit1(t *testing.T) {
	code, _, errs := run(t, "", "check", cliData+"/no-such-dir")
	if code != exitFail || !strings.Contains(errs, "no-such-dir") {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
}

func TestCheck_EmptyDirectory_Exit1(t *testing.T) {
	code, _, errs := run(t, "", "check", t.TempDir())
	if code != exitFail || !strings.Contains(errs, "no .yaml or .yml files") {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
}

func TestCheck_UnloadableScenario_CountsAsFailure(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir+"/bad.yaml", "name: x\nsystem: binding\nnow: \"2026-11-30T10:00:00Z\"\nexpect:\n  - {kind: Binding, name: a, conditons: []}\n")
	code, out, _ := run(t, "", "check", dir)
	if code != exitFail || !strings.Contains(out, "FAIL "+dir+"/bad.yaml:") || !strings.Contains(out, "conditons") ||
		!strings.HasSuffix(out, "0 passed, 1 failed\n") {
		t.Fatalf("code %d, output:\n%s", code, out)
	}
}

func TestReport_ErrorsAreOneLine(t *testing.T) {
	var b strings.Builder
	n := report(&b, "condengine", []scenario.Result{{Path: "p.yaml", Err: errors.New("line one\nline two")}}, false)
	if n != 1 || b.String() != "FAIL p.yaml: line one line two\n0 passed, 1 failed\n" {
		t.Fatalf("%d %q", n, b.String())
	}
}

// Several errors joined are printed one per line, as eval prints them,
// each still one line, with what wraps them before the first; the
// file's name is not said twice.
func TestReport_JoinedErrorsOnePerLine(t *testing.T) {
	var b strings.Builder
	joined := fmt.Errorf("p.yaml: %w", errors.Join(errors.New("document 1: bad"), errors.New("document 2:\nworse"),
		errors.Join(errors.New("document 3: nested"))))
	n := report(&b, "condengine", []scenario.Result{{Path: "p.yaml", Err: joined}}, false)
	want := "FAIL p.yaml: document 1: bad\n    document 2: worse\n    document 3: nested\n0 passed, 1 failed\n"
	if n != 1 || b.String() != want {
		t.Fatalf("%d\n%s\nwant\n%s", n, b.String(), want)
	}
}

func TestCheck_SeveralBadObjectsOnePerLine(t *testing.T) {
	dir := t.TempDir()
	obj := func(name string) string {
		return `  - {"apiVersion": "agentkourier.dev/v1alpha1", "kind": "Binding", "metadata": {"namespace": "a", "name": "` + name + `"}, "spec": {"bogus": 1}}` + "\n"
	}
	writeFile(t, dir+"/two.yaml", "name: x\nsystem: binding\nnow: \"2026-11-30T10:00:00Z\"\nobjects:\n"+obj("b0")+obj("b1")+"expect: []\n")
	code, out, _ := run(t, "", "check", dir+"/two.yaml")
	want := "FAIL " + dir + "/two.yaml: document 1 (Binding a/b0): spec.bogus: unknown field\n" +
		"    document 2 (Binding a/b1): spec.bogus: unknown field\n0 passed, 1 failed\n"
	if code != exitFail || out != want {
		t.Fatalf("code %d, output:\n%s\nwant\n%s", code, out, want)
	}
}

func TestCheck_JSON(t *testing.T) {
	code, out, errs := run(t, "", "check", "-o", "json", cliData+"/check")
	if code != exitFail {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
	var doc checkJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v in:\n%s", err, out)
	}
	if doc.Passed != 1 || doc.Failed != 1 || len(doc.Scenarios) != 2 {
		t.Fatalf("%+v", doc)
	}
	bad := doc.Scenarios[1]
	if bad.Passed || bad.System != "binding" || !strings.HasSuffix(bad.Path, "deliberately-failing.yaml") || len(bad.Mismatches) != 7 {
		t.Fatalf("%+v", bad)
	}
	// want and got are JSON values ("OK"), not strings holding JSON
	// ("\"OK\""); a phrase that is no JSON value stays a string.
	m := bad.Mismatches[1]
	if m.Object != "Binding team-a/late" || m.Field != "conditions[0].reason" || string(m.Want) != `"OK"` || string(m.Got) != `"ChannelConflict"` {
		t.Errorf("mismatch %s %s want %s got %s", m.Object, m.Field, m.Want, m.Got)
	}
	if last := bad.Mismatches[6]; string(last.Got) != `"(absent)"` {
		t.Errorf("an absent value reads %s, want the string \"(absent)\"", last.Got)
	}
	if strings.Contains(out, `\"OK\"`) {
		t.Errorf("a value is encoded twice:\n%s", out)
	}
	if code, out, _ := run(t, "", "check", "-o", "json", cliData+"/check/connection-not-found.yaml"); code != exitOK || !strings.Contains(out, `"failed": 0`) {
		t.Errorf("passing run: code %d\n%s", code, out)
	}
}

func TestCheck_JUnit(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir+"/broken.yaml", "name: x\n")
	code, out, errs := run(t, "", "check", "-o", "junit", cliData+"/check", dir)
	if code != exitFail {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
	var doc junitSuites
	if err := xml.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v in:\n%s", err, out)
	}
	if doc.Tests != 3 || doc.Failures != 1 || doc.Errors != 1 || len(doc.Suites) != 2 {
		t.Fatalf("%+v", doc)
	}
	cases := doc.Suites[0].Cases
	if cases[0].Name != "connection-not-found" || cases[0].Failure != nil || cases[0].Error != nil {
		t.Errorf("passing case %+v", cases[0])
	}
	f := cases[1].Failure
	if cases[1].Name != "deliberately-failing" || f == nil || !strings.Contains(f.Text, `conditions[0].reason: want "OK", got "ChannelConflict"`) {
		t.Errorf("failing case %+v", cases[1])
	}
	if e := doc.Suites[1].Cases[0].Error; e == nil || !strings.Contains(e.Message, "system") {
		t.Errorf("unloadable case %+v", doc.Suites[1].Cases[0])
	}
}

func TestCheck_UnknownFormat_Exit2(t *testing.T) {
	code, _, errs := run(t, "", "check", "-o", "yaml", cliData+"/check")
	if code != exitUsage || !strings.Contains(errs, `invalid value "yaml" for flag -o: want text, json or junit`) {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
}
