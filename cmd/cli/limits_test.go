package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// eval and check read through one reader: the same input gives the same
// error from both, naming the file, the document and the limit.
func TestEvalAndCheck_OneReaderOneSetOfErrors(t *testing.T) {
	dir := t.TempDir()
	scen, err := os.ReadFile(cliData + "/check/connection-not-found.yaml")
	if err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(dir, "scenario-then-broken.yaml")
	writeFile(t, broken, string(scen)+"---\nkind: [unclosed\n")
	extra := filepath.Join(dir, "scenario-then-more.yaml")
	writeFile(t, extra, string(scen)+"---\nkind: ConfigMap\n")
	big := filepath.Join(dir, "big.yaml")
	writeFile(t, big, "name: big\nsystem: binding\nnow: \"2026-11-30T10:00:00Z\"\ncomment: "+strings.Repeat("x", 65<<20)+"\n")
	for _, tc := range []struct{ name, file, want string }{
		{"a broken document after a scenario", broken, ": document 2, line "},
		{"a second document after a scenario", extra, ": document 2, line 29: a scenario file holds one document"},
		{"a document over the limit", big, ": document 1, line 1: the document is larger than MaxDocumentBytes (64 MiB)"},
		{"an endless input", "/dev/zero", ": document 1, line 1: the document is larger than MaxDocumentBytes (64 MiB)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := os.Stat(tc.file); err != nil {
				t.Skip(err)
			}
			evalCode, _, evalErr := run(t, "", "eval", "-f", tc.file, "-now", fixedNow)
			checkCode, checkOut, checkErr := run(t, "", "check", tc.file)
			if evalCode != exitFail || checkCode != exitFail {
				t.Fatalf("exit codes eval %d, check %d; want %d for both", evalCode, checkCode, exitFail)
			}
			if !strings.Contains(evalErr, tc.file+tc.want) {
				t.Errorf("eval stderr %q lacks %q", evalErr, tc.file+tc.want)
			}
			if !strings.Contains(checkOut+checkErr, tc.file+tc.want) {
				t.Errorf("check output %q %q lacks %q", checkOut, checkErr, tc.file+tc.want)
			}
		})
	}
}

// A scenario between 16 and 64 MiB, which check used to refuse and eval
// accepted, is read by both.
func TestEvalAndCheck_AcceptTheSameLargeScenario(t *testing.T) {
	scen, err := os.ReadFile(cliData + "/check/connection-not-found.yaml")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "large.yaml")
	writeFile(t, file, string(scen)+"# "+strings.Repeat("padding ", (20<<20)/8)+"\n")
	if code, _, errs := run(t, "", "eval", "-f", file, "-o", "json"); code != exitOK {
		t.Fatalf("eval: code %d: %s", code, errs)
	}
	if code, out, errs := run(t, "", "check", file); code != exitOK {
		t.Fatalf("check: code %d: %s %s", code, out, errs)
	}
}
