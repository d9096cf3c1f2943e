package main

import (
	"errors"
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
	for _, want := range []string{
		"FAIL " + cliData + "/check/deliberately-failing.yaml: DELIBERATELY FAILING",
		"Binding team-a/late (-want +got):",
		`- 			Reason:             "OK",`,
		`+ 			Reason:             "ChannelConflict",`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
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
	code, out, errs := run(t, "", "check", "demo", cliData+"/check/connection-not-found.yaml")
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
	n := report(&b, []scenario.Result{{Path: "p.yaml", Err: errors.New("line one\nline two")}}, false)
	if n != 1 || b.String() != "FAIL p.yaml: line one line two\n0 passed, 1 failed\n" {
		t.Fatalf("%d %q", n, b.String())
	}
}
