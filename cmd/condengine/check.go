package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/scenario"
)

func runCheck(e env, args []string) int {
	fs := newFlags(e, "check", "check [-v] [-o text|json|junit] DIR|FILE...")
	verbose := fs.Bool("v", false, "also list the scenarios that pass (text output)")
	format := oneOf(fs, "o", "output `format` (junit: JUnit XML for CI)", "text", "json", "junit")
	paths, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(paths) == 0 {
		return usageError(e, "check", "name at least one scenario file or directory")
	}
	results, err := conformance.Runners().RunPaths(paths...)
	if err != nil {
		fmt.Fprintf(e.stderr, "condengine check: %v\n", err)
		return exitFail
	}
	if len(results) == 0 {
		fmt.Fprintf(e.stderr, "condengine check: no .yaml or .yml files under %s\n", strings.Join(paths, " "))
		return exitFail
	}
	if *format == "text" {
		if failed := report(e.stdout, results, *verbose); failed > 0 {
			return exitFail
		}
		return exitOK
	}
	if err := checkWriters[*format](e.stdout, results); err != nil {
		fmt.Fprintf(e.stderr, "condengine check: %v\n", err)
		return exitFail
	}
	for _, r := range results {
		if !r.Passed() {
			return exitFail
		}
	}
	return exitOK
}

// report prints one FAIL block per failed scenario (its diff indented under
// it) and the closing "N passed, M failed" line; it returns M.
func report(w io.Writer, results []scenario.Result, verbose bool) int {
	passed, failed := 0, 0
	for _, r := range results {
		name := ""
		if r.File != nil {
			name = r.File.Name
		}
		switch {
		case r.Passed():
			passed++
			if verbose {
				fmt.Fprintf(w, "ok   %s: %s\n", r.Path, name)
			}
		case r.Err != nil:
			failed++
			fmt.Fprintf(w, "FAIL %s: %s\n", r.Path, oneLine(r.Err.Error()))
			if errors.Is(r.Err, scenario.ErrManifest) {
				fmt.Fprintf(w, "    check runs scenario files; for the status of these objects run: condengine eval -f %s\n", r.Path)
			}
		default:
			failed++
			fmt.Fprintf(w, "FAIL %s: %s\n", r.Path, name)
			fmt.Fprint(w, indent(r.Diff, "    "))
		}
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", passed, failed)
	return failed
}

func indent(s, prefix string) string {
	if s == "" {
		return ""
	}
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l == "" {
			continue
		}
		b.WriteString(prefix)
		b.WriteString(l)
	}
	if !strings.HasSuffix(s, "\n") {
		b.WriteByte('\n')
	}
	return b.String()
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
