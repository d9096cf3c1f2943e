package cli

import (
	"os"
	"testing"
)

// /dev/null is a character device but no terminal; a pipe is neither; a
// pseudo-terminal is one.
func TestIsTerminal(t *testing.T) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if isTerminal(null) || isTerminal(r) {
		t.Fatalf("/dev/null %v, pipe %v: want no terminal", isTerminal(null), isTerminal(r))
	}
	pty, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer pty.Close()
	if !isTerminal(pty) {
		t.Fatal("a pseudo-terminal does not read as a terminal")
	}
}
