package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/scenario"
)

// runConform checks the implementation COMMAND against this engine over
// the JSON-lines protocol of docs/conform.md.
func runConform(e env, args []string) int {
	fs := newFlags(e, "conform", "conform --system binding|finops --exec CMD [--runs N] [--seed S] [--out FILE] [--timeout D]")
	system := fs.String("system", "", "the system to check: binding or finops")
	command := fs.String("exec", "", "the implementation, started once with /bin/sh -c; it answers one line per request line")
	runs := fs.Int("runs", 100, "how many generated snapshots to send")
	seed := fs.Int("seed", 0, "the seed of the first snapshot; snapshot i uses seed+i")
	out := fs.String("out", "", "write the counterexample scenario to this file")
	timeout := fs.Duration("timeout", 10*time.Second, "how long one answer may take")
	pos, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	switch {
	case len(pos) > 0:
		return usageError(e, "conform", "unexpected argument %q", pos[0])
	case conformance.StatusKinds(*system) == nil:
		return usageError(e, "conform", "--system must be %s or %s", scenario.SystemBinding, scenario.SystemFinOps)
	case strings.TrimSpace(*command) == "":
		return usageError(e, "conform", "--exec names the implementation to check")
	case *runs < 1:
		return usageError(e, "conform", "--runs must be at least 1")
	case *seed < 0:
		return usageError(e, "conform", "--seed must not be negative")
	case *timeout <= 0:
		return usageError(e, "conform", "--timeout must be positive")
	}
	impl, err := startImplementation(*command, *timeout)
	if err != nil {
		fmt.Fprintf(e.stderr, "condengine conform: %v\n", err)
		return exitFail
	}
	c, err := conformance.Differential(*system, impl.evaluate, conformance.Options{Runs: *runs, Seed: *seed})
	impl.stop()
	if err != nil {
		fmt.Fprintf(e.stderr, "condengine conform: %v\n", err)
		return exitFail
	}
	if c == nil {
		fmt.Fprintf(e.stdout, "%d %s snapshots (seeds %d to %d): the implementation agrees with the engine on every one\n",
			*runs, *system, *seed, *seed+*runs-1)
		return exitOK
	}
	if errors.Is(c.Err, conformance.ErrBroken) {
		// Shrinking sends requests of its own, so the request the command
		// broke on may come after the snapshot's, c.Run+1.
		fmt.Fprintf(e.stdout, "FAIL request %d (seed %d): %v\n", impl.brokenAt, c.Seed, c.Err)
	} else {
		fmt.Fprintf(e.stdout, "FAIL request %d (seed %d) disagrees with the engine; shrunk from %d objects to %d:\n",
			c.Run+1, c.Seed, c.Objects, len(c.File.Objects))
		if c.Err != nil {
			fmt.Fprintf(e.stdout, "  the implementation failed: %v\n", c.Err)
		}
		fmt.Fprint(e.stdout, indent(conformance.FormatDifferences(c.Differences), "  "))
	}
	y, err := c.YAML()
	if err != nil {
		fmt.Fprintf(e.stderr, "condengine conform: %v\n", err)
		return exitFail
	}
	fmt.Fprintf(e.stdout, "--- scenario (the engine's answer as expect) ---\n%s", y)
	if *out != "" {
		if err := os.WriteFile(*out, y, 0o644); err != nil {
			fmt.Fprintf(e.stderr, "condengine conform: %v\n", err)
			return exitFail
		}
		fmt.Fprintf(e.stdout, "--- written to %s\n", *out)
	}
	return exitFail
}

// implementation is the running COMMAND: requests go to its stdin, answer
// lines come from its stdout through one reader goroutine.
type implementation struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	answers chan answerLine
	stderr  *tail
	timeout time.Duration
	sent    int
	broken  error
	done    chan struct{} // closed when the process has exited
	exitErr error

	// brokenAt is the number of the request the command broke on.
	brokenAt int
}

type answerLine struct {
	line []byte
	err  error
}

func startImplementation(command string, timeout time.Duration) (*implementation, error) {
	cmd := exec.Command("/bin/sh", "-c", command)
	ownGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p := &implementation{cmd: cmd, stdin: stdin, answers: make(chan answerLine), stderr: &tail{max: 2048},
		timeout: timeout, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot start %q: %w", command, err)
	}
	go func() {
		r := bufio.NewReaderSize(stdout, 1<<16)
		for {
			line, err := readLine(r, scenario.MaxFileBytes)
			p.answers <- answerLine{line, err}
			if err != nil {
				break
			}
		}
		close(p.answers)
		// Wait closes stdout, so it may only start once reading is over.
		p.exitErr = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// evaluate sends one request and reads its answer. Any failure of the
// protocol breaks the implementation for good: a crashed, silent or
// garbled process cannot be trusted with the next request.
func (p *implementation) evaluate(f *scenario.File) ([]conformance.Object, error) {
	if p.broken != nil {
		return nil, p.broken
	}
	p.sent++
	n := p.sent
	req, err := conformance.Request(f)
	if err != nil {
		return nil, err
	}
	timer := time.NewTimer(p.timeout)
	defer timer.Stop()
	wrote := make(chan error, 1)
	go func() {
		_, err := p.stdin.Write(append(req, '\n'))
		wrote <- err
	}()
	select {
	case err := <-wrote:
		if err != nil {
			// A command that exits without reading breaks the pipe, and
			// which of the two it notices first is a race: report an
			// ended command as ended, whichever came first.
			if st, ended := p.waitExit(); ended {
				return nil, p.fail(n, "the command ended its output without answering (%s)", st)
			}
			return nil, p.fail(n, "the command is not reading its input (%v)", err)
		}
	case <-timer.C:
		return nil, p.fail(n, "the command did not read the request within %s", p.timeout)
	}
	select {
	case a, ok := <-p.answers:
		switch {
		case !ok || errors.Is(a.err, io.EOF):
			return nil, p.fail(n, "the command ended its output without answering (%v)", p.exitStatus())
		case a.err != nil:
			return nil, p.fail(n, "unreadable answer: %v", a.err)
		}
		objs, err := conformance.DecodeAnswer(a.line)
		if err != nil {
			return nil, p.fail(n, "malformed answer: %v", err)
		}
		return objs, nil
	case <-timer.C:
		return nil, p.fail(n, "no answer within %s", p.timeout)
	}
}

func (p *implementation) fail(n int, format string, args ...any) error {
	p.brokenAt = n
	p.broken = fmt.Errorf("%w: request %d: %s", conformance.ErrBroken, n, fmt.Sprintf(format, args...))
	if s := strings.TrimSpace(p.stderr.String()); s != "" {
		p.broken = fmt.Errorf("%w; its stderr ends with: %s", p.broken, oneLine(s))
	}
	p.kill()
	return p.broken
}

// exitStatus waits briefly for the process to end and describes how it
// did.
func (p *implementation) exitStatus() string {
	st, _ := p.waitExit()
	return st
}

// waitExit waits up to two seconds for the process to end, reading and
// dropping what is left of its output (the reader can only wait for the
// process once its output is read), and says how it ended, or that it
// is still running.
func (p *implementation) waitExit() (status string, ended bool) {
	deadline := time.After(2 * time.Second)
	answers := p.answers
	for {
		select {
		case _, ok := <-answers:
			if !ok {
				answers = nil
			}
		case <-p.done:
			var ee *exec.ExitError
			if errors.As(p.exitErr, &ee) {
				return fmt.Sprintf("it exited with status %d", ee.ExitCode()), true
			}
			if p.exitErr != nil {
				return p.exitErr.Error(), true
			}
			return "it exited with status 0", true
		case <-deadline:
			return "it is still running", false
		}
	}
}

func (p *implementation) kill() { killGroup(p.cmd) }

// stop closes the command's input, gives it a moment to exit on its own,
// then kills it.
func (p *implementation) stop() {
	_ = p.stdin.Close()
	go func() {
		for range p.answers {
		}
	}()
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		p.kill()
		<-p.done
	}
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
