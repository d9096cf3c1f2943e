package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
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
	results, err := system.Runners(e.Systems...).RunPaths(paths...)
	if err != nil {
		e.errorf("check", "%v", err)
		return exitFail
	}
	if len(results) == 0 {
		e.errorf("check", "no .yaml or .yml files under %s", strings.Join(paths, " "))
		return exitFail
	}
	if *format == "text" {
		if failed := report(e.stdout, e.Name, results, *verbose); failed > 0 {
			return exitFail
		}
		return exitOK
	}
	if err := checkWriters[*format](e.stdout, e.Name, results); err != nil {
		e.errorf("check", "%v", err)
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
// it) and the closing "N passed, M failed" line; it returns M. program
// is the command's name, for the hint to run eval.
func report(w io.Writer, program string, results []scenario.Result, verbose bool) int {
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
			lines := errorLines(r.Err)
			fmt.Fprintf(w, "FAIL %s: %s\n", r.Path, strings.TrimPrefix(lines[0], r.Path+": "))
			for _, l := range lines[1:] {
				fmt.Fprintf(w, "    %s\n", l)
			}
			if errors.Is(r.Err, scenario.ErrManifest) {
				fmt.Fprintf(w, "    check runs scenario files; for the status of these objects run: %s eval -f %s\n", program, r.Path)
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

// errorLines is err's text as check prints it: one line for each error
// joined into it (as eval prints them), each made one line, so text
// that holds a line end of its own cannot pass for another error. What
// wraps the joined errors (a file's name) leads the first line.
func errorLines(err error) []string {
	var joined interface{ Unwrap() []error }
	whole := err.Error()
	if !errors.As(err, &joined) || !strings.HasSuffix(whole, joined.(error).Error()) {
		return []string{oneLine(whole)}
	}
	lead := strings.TrimSuffix(whole, joined.(error).Error())
	var out []string
	for _, e := range joined.Unwrap() {
		if e != nil {
			out = append(out, errorLines(e)...)
		}
	}
	if len(out) == 0 {
		return []string{oneLine(whole)}
	}
	out[0] = oneLine(lead + out[0])
	return out
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
