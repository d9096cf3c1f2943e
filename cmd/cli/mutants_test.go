package cli

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The planted bugs of conformance/testdata/mutants are each caught by
// `conform --runs 300` on three seeds. It builds the mutants and runs 78
// conform runs: under a minute on two cores, so it runs only with
// CONDENGINE_MUTANTS=1 (CI sets it). It logs the table: bug, the request
// each seed caught it on.
func TestConform_CatchesPlantedBugs(t *testing.T) {
	onlyWith(t, "CONDENGINE_MUTANTS", "run the planted bugs (under a minute)")
	bin := goBuild(t, "../../conformance/testdata/mutants", "mutants")
	list, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	bugs := strings.Split(strings.TrimSpace(string(list)), "\n")
	if len(bugs) < 20 {
		t.Fatalf("%d planted bugs, want at least 20", len(bugs))
	}
	caughtAt := regexp.MustCompile(`^FAIL request (\d+) `)
	table := []string{"| bug | seed 1000 | seed 2000 | seed 3000 |", "|---|---|---|---|"}
	start := time.Now()
	for _, b := range bugs {
		name, system, _ := strings.Cut(b, "\t")
		system, _, _ = strings.Cut(system, "\t")
		row := "| " + name + " |"
		for _, seed := range []string{"1000", "2000", "3000"} {
			code, stdout, errs := run(t, "", "conform", "--system", system, "--exec", bin+" "+name+" "+system, "--runs", "300", "--seed", seed)
			m := caughtAt.FindStringSubmatch(stdout)
			if code != exitFail || m == nil {
				t.Errorf("%s on seed %s: not caught (code %d, stderr %q)\n%s", name, seed, code, errs, firstLines(stdout, 3))
				row += " not caught |"
				continue
			}
			row += " request " + m[1] + " |"
		}
		table = append(table, row)
	}
	t.Logf("planted bugs caught by conform --runs 300 (%v):\n%s", time.Since(start).Round(time.Second), strings.Join(table, "\n"))
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
