package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/manifest"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

// runConform checks the implementation COMMAND against this engine over
// the JSON-lines protocol of docs/conform.md.
func runConform(e env, args []string) int {
	fs := newFlags(e, "conform", "conform --system "+strings.Join(e.names(), "|")+" --exec CMD [--runs N] [--seed S] [--out FILE] [--timeout D] [--start-timeout D]\n"+
		"       [--strict-order=false] [--keys write,removeFinalizer,retryAt] [--only KIND[:TYPE],…] [--until-coverage N]\n"+
		"       conform --replay FILE --exec CMD [--keys …] [--only …]")
	systemName := fs.String("system", "", "the system to check: "+e.systemNames())
	command := fs.String("exec", "", "the implementation, started once with /bin/sh -c; it answers one line per request line")
	runs := fs.Int("runs", 100, "how many generated snapshots to send (with --until-coverage, the most)")
	seed := fs.Int("seed", 0, "the seed of the first snapshot; snapshot i uses seed+i")
	out := fs.String("out", "", "write the counterexample scenario to this file")
	timeout := fs.Duration("timeout", 10*time.Second, "how long one answer may take")
	startTimeout := fs.Duration("start-timeout", 30*time.Second, "how much longer the first answer may take, for the command's start")
	strictOrder := fs.Bool("strict-order", true, "compare the order of each object's conditions (on by default)")
	keys := fs.String("keys", "", "decision keys the answers carry and conform compares: write, removeFinalizer, retryAt (also declared by a capabilities line)")
	only := fs.String("only", "", "compare only these kinds, or KIND:TYPE conditions, comma-separated (an implementation of a subset)")
	untilCoverage := fs.Int("until-coverage", 0, "run until every reachable rule and decision outcome was reached N times, or --runs snapshots (then --runs defaults to 5000)")
	replay := fs.String("replay", "", "send this one scenario file (a counterexample) and compare the answer")
	pos, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	runsSet := false
	fs.Visit(func(f *flag.Flag) { runsSet = runsSet || f.Name == "runs" })
	if *untilCoverage > 0 && !runsSet {
		*runs = 5000
	}
	keyList, onlyList := splitList(*keys), splitList(*only)
	for _, k := range keyList {
		if !slices.Contains(conformance.DecisionKeys(), k) {
			return usageError(e, "conform", "--keys: %q is not one of %s", k, strings.Join(conformance.DecisionKeys(), ", "))
		}
	}
	switch {
	case len(pos) > 0:
		return usageError(e, "conform", "unexpected argument %q", pos[0])
	case strings.TrimSpace(*command) == "":
		return usageError(e, "conform", "--exec names the implementation to check")
	case *timeout <= 0 || *startTimeout < 0:
		return usageError(e, "conform", "--timeout must be positive and --start-timeout not negative")
	case *replay != "":
		return replayOne(e, *replay, *command, *timeout+*startTimeout, conformance.Options{AnyOrder: !*strictOrder, Keys: keyList, Only: onlyList})
	case e.find(*systemName) == nil:
		return usageError(e, "conform", "--system must be %s", e.systemNames())
	case *runs < 1:
		return usageError(e, "conform", "--runs must be at least 1")
	case *seed < 0:
		return usageError(e, "conform", "--seed must not be negative")
	case *seed > math.MaxInt-*runs+1:
		return usageError(e, "conform", "--seed %d with --runs %d passes the last seed, %d", *seed, *runs, math.MaxInt)
	case *untilCoverage < 0:
		return usageError(e, "conform", "--until-coverage must not be negative")
	}
	sys := e.find(*systemName)
	if err := conformance.ValidOnly(sys, onlyList); err != nil {
		return usageError(e, "conform", "--only %v", err)
	}
	impl, err := startImplementation(*command, *timeout, *startTimeout)
	if err != nil {
		e.errorf("conform", "%v", err)
		return exitFail
	}
	opts := conformance.Options{Runs: *runs, Seed: *seed, AnyOrder: !*strictOrder, Keys: keyList, Only: onlyList,
		KeysFrom: impl.declared, UntilCoverage: *untilCoverage}
	progress := newProgress(e.stderr)
	opts.Progress = progress.show
	res, err := conformance.Run(sys, impl.evaluate, opts)
	progress.clear()
	impl.stop()
	if err != nil {
		e.errorf("conform", "%v", err)
		return exitFail
	}
	c := res.Counterexample
	if c == nil {
		fmt.Fprintf(e.stdout, "%d %s snapshots (seeds %d to %d): the implementation agrees with the engine on every one\n",
			res.Runs, *systemName, *seed, *seed+res.Runs-1)
		fmt.Fprintf(e.stdout, "compared: %s\n", describeComparison(opts, impl.declared()))
		fmt.Fprint(e.stdout, conformance.CoverageReport(sys, res.Reached))
		fmt.Fprint(e.stdout, conformance.DecisionReport(sys, res.Decisions))
		return exitOK
	}
	return reportCounterexample(e, c, impl, *out)
}

// describeComparison says in one line what a run compared.
func describeComparison(opts conformance.Options, declared []string) string {
	parts := []string{"conditions and status fields"}
	if len(opts.Only) > 0 {
		parts = []string{"only " + strings.Join(opts.Only, ", ")}
	}
	if opts.AnyOrder {
		parts = append(parts, "condition order ignored (--strict-order=false)")
	} else {
		parts = append(parts, "condition order")
	}
	keys := append(slices.Clone(opts.Keys), declared...)
	if len(keys) > 0 {
		parts = append(parts, "decisions "+strings.Join(keys, ", "))
	} else {
		parts = append(parts, "no decisions (none declared)")
	}
	return strings.Join(parts, "; ")
}

func reportCounterexample(e env, c *conformance.Counterexample, impl *implementation, out string) int {
	var refused *conformance.Refusal
	switch {
	case errors.Is(c.Err, conformance.ErrBroken):
		// Shrinking sends requests of its own, so the request the command
		// broke on may come after the snapshot's, c.Run+1.
		fmt.Fprintf(e.stdout, "FAIL request %d (seed %d): %v\n", impl.brokenAt, c.Seed, c.Err)
	case c.BrokeOn != nil:
		fmt.Fprintf(e.stdout, "FAIL request %d (seed %d): %v\n", impl.brokenAt, c.Seed, c.BrokeErr)
		y, err := conformance.ScenarioYAML(c.BrokeOn)
		if err == nil {
			fmt.Fprintf(e.stdout, "--- the request it broke on (the engine's answer as expect) ---\n%s", y)
		}
		fmt.Fprintf(e.stdout, "Before it broke, request %d (seed %d) disagreed with the engine; shrunk from %d objects to %d:\n",
			c.Run+1, c.Seed, c.Objects, len(c.File.Objects))
	case errors.As(c.Err, &refused):
		fmt.Fprintf(e.stdout, "FAIL request %d (seed %d): %v; shrunk from %d objects to %d\n",
			c.Run+1, c.Seed, c.Err, c.Objects, len(c.File.Objects))
	default:
		fmt.Fprintf(e.stdout, "FAIL request %d (seed %d) disagrees with the engine; shrunk from %d objects to %d:\n",
			c.Run+1, c.Seed, c.Objects, len(c.File.Objects))
		if c.Err != nil {
			fmt.Fprintf(e.stdout, "  the implementation failed: %v\n", c.Err)
		}
	}
	if c.Note != "" {
		fmt.Fprintf(e.stdout, "  note: %s\n", c.Note)
	}
	fmt.Fprint(e.stdout, indent(conformance.FormatDifferences(c.Differences), "  "))
	c.Command = e.Name
	y, err := c.YAML()
	if err != nil {
		e.errorf("conform", "%v", err)
		return exitFail
	}
	fmt.Fprintf(e.stdout, "--- scenario (the engine's answer as expect) ---\n%s", y)
	if out != "" {
		if err := os.WriteFile(out, y, 0o644); err != nil {
			e.errorf("conform", "%v", err)
			return exitFail
		}
		fmt.Fprintf(e.stdout, "--- written to %s; replay it with: %s conform --replay %s --exec CMD\n", out, e.Name, out)
	}
	return exitFail
}

// replayOne sends one scenario file to the command and compares the
// answer with the engine's.
func replayOne(e env, path, command string, timeout time.Duration, opts conformance.Options) int {
	f, err := scenario.Load(path)
	if err != nil {
		e.errorf("conform", "%v", err)
		return exitFail
	}
	sys, err := system.Find(f.System, e.Systems...)
	if err != nil {
		e.errorf("conform", "%s: the engine refuses it: %v", path, err)
		return exitFail
	}
	if err := conformance.ValidOnly(sys, opts.Only); err != nil {
		return usageError(e, "conform", "--only %v", err)
	}
	f.Expect = nil
	want, err := conformance.Reference(sys)(f)
	if err != nil {
		e.errorf("conform", "%s: the engine refuses it: %v", path, err)
		return exitFail
	}
	impl, err := startImplementation(command, timeout, 0)
	if err != nil {
		e.errorf("conform", "%v", err)
		return exitFail
	}
	got, evalErr := impl.evaluate(f)
	impl.stop()
	if evalErr != nil {
		fmt.Fprintf(e.stdout, "FAIL %s: %v\n", path, evalErr)
		return exitFail
	}
	opts.Keys = append(opts.Keys, impl.declared()...)
	diffs := conformance.CompareWith(want, got, conformance.CompareOptions{AnyOrder: opts.AnyOrder, Keys: opts.Keys, Only: opts.Only})
	diffs = append(diffs, conformance.Validate(f, got)...)
	if len(diffs) == 0 {
		fmt.Fprintf(e.stdout, "%s: the implementation agrees with the engine\n", path)
		return exitOK
	}
	fmt.Fprintf(e.stdout, "FAIL %s disagrees with the engine:\n%s", path, indent(conformance.FormatDifferences(diffs), "  "))
	return exitFail
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// progress shows on a terminal how far a run is, at most four times a
// second, and nothing when stderr is not a terminal.
type progress struct {
	w     io.Writer
	on    bool
	last  time.Time
	shown bool
}

func newProgress(w io.Writer) *progress {
	f, ok := w.(*os.File)
	on := false
	if ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			on = true
		}
	}
	return &progress{w: w, on: on}
}

func (p *progress) show(done, total int) {
	if !p.on || time.Since(p.last) < 250*time.Millisecond {
		return
	}
	p.last, p.shown = time.Now(), true
	fmt.Fprintf(p.w, "\rconform: %d of at most %d snapshots compared", done, total)
}

func (p *progress) clear() {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// implementation is the running COMMAND: requests go to its stdin, answer
// lines come from its stdout through one reader goroutine.
type implementation struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	answers chan answerLine
	stderr  *tail
	timeout time.Duration
	// startTimeout is added to the first answer's timeout.
	startTimeout time.Duration
	sent         int
	// keys are the decision keys the command declared on a capabilities
	// line before its first answer.
	keys    []string
	capsMu  sync.Mutex
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

func startImplementation(command string, timeout, startTimeout time.Duration) (*implementation, error) {
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
		timeout: timeout, startTimeout: startTimeout, done: make(chan struct{})}
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

// declared returns the decision keys the command declared.
func (p *implementation) declared() []string {
	p.capsMu.Lock()
	defer p.capsMu.Unlock()
	return slices.Clone(p.keys)
}

// evaluate sends one request and reads its answer. Any failure of the
// protocol breaks the implementation for good: a crashed, silent or
// garbled process cannot be trusted with the next request. An error
// answer is a refusal, and the process goes on.
func (p *implementation) evaluate(f *scenario.File) ([]conformance.Object, error) {
	if p.broken != nil {
		return nil, p.broken
	}
	p.sent++
	n := p.sent
	req, err := conformance.EncodeRequest(int64(n), f)
	if err != nil {
		return nil, err
	}
	limit, why := p.timeout, ""
	if n == 1 && p.startTimeout > 0 {
		limit += p.startTimeout
		why = fmt.Sprintf(" (%s, with --start-timeout %s for the command's start)", p.timeout, p.startTimeout)
	}
	timer := time.NewTimer(limit)
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
		return nil, p.fail(n, "the command did not read the request within %s%s", limit, why)
	}
	for {
		select {
		case a, ok := <-p.answers:
			switch {
			case !ok || errors.Is(a.err, io.EOF):
				return nil, p.fail(n, "the command ended its output without answering (%v)", p.exitStatus())
			case a.err != nil:
				return nil, p.fail(n, "unreadable answer: %v", a.err)
			}
			if n == 1 && p.capabilities(a.line) {
				continue
			}
			return p.answer(n, a.line)
		case <-timer.C:
			return nil, p.fail(n, "no answer within %s%s", limit, why)
		}
	}
}

// capabilities reads a capabilities line, which may only come before the
// first answer; it reports whether line was one.
func (p *implementation) capabilities(line []byte) bool {
	var c struct {
		Capabilities *[]string `json:"capabilities"`
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if dec.Decode(&c) != nil || c.Capabilities == nil {
		return false
	}
	p.capsMu.Lock()
	defer p.capsMu.Unlock()
	for _, k := range *c.Capabilities {
		if slices.Contains(conformance.DecisionKeys(), k) && !slices.Contains(p.keys, k) {
			p.keys = append(p.keys, k)
		}
	}
	return true
}

// answer reads the answer line to request n.
func (p *implementation) answer(n int, line []byte) ([]conformance.Object, error) {
	a, err := conformance.DecodeReply(line)
	if err == nil {
		err = manifest.DuplicateKey(line)
	}
	if err != nil {
		return nil, p.fail(n, "malformed answer: %v", err)
	}
	switch {
	case a.ID == nil:
		return nil, p.fail(n, "malformed answer: it does not echo the request's id %d (every answer carries the id of its request)", n)
	case *a.ID != int64(n):
		return nil, p.fail(n, "the answer carries id %d, not the request's %d: the command answered a request twice or printed an extra line, so the answers no longer match the requests", *a.ID, n)
	case a.Error != nil:
		return nil, &conformance.Refusal{Message: *a.Error}
	}
	return a.Objects, nil
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
