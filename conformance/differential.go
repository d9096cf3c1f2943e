package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/condengine/condengine/internal/scenariogen"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

// Options tune a differential run. The zero value is usable.
type Options struct {
	// Runs is how many generated snapshots are compared; 0 means 100.
	// With UntilCoverage it is the most that are drawn.
	Runs int
	// Seed is the seed of the first snapshot; snapshot i uses Seed+i, so
	// a run is reproducible and a failure names the seed to rerun.
	Seed int
	// ShrinkBudget bounds the evaluations spent shrinking a
	// counterexample; 0 means 2000.
	ShrinkBudget int
	// Out is where Check writes the counterexample scenario; empty means
	// a file named after the system and seed in os.TempDir().
	Out string
	// AnyOrder, Keys and Only are the comparison's options
	// (CompareOptions): condition order is compared unless AnyOrder is
	// set, the declared decision keys are compared, and Only restricts
	// the comparison to a subset of kinds and condition types.
	AnyOrder bool
	Keys     []string
	Only     []string
	// KeysFrom, when set, is asked for the declared keys before each
	// comparison and adds them to Keys: a process declares its keys on
	// its first line, which is read with the first answer.
	KeysFrom func() []string
	// UntilCoverage, when above 0, stops the run once every rule that
	// a snapshot of the system can reach (SystemRules) decided a condition
	// in at least that many snapshots, and every decision outcome one can
	// reach (SystemDecisions) came out in as many, or after Runs
	// snapshots.
	UntilCoverage int
	// Progress, when set, is told after each snapshot how many were
	// compared and how many may be.
	Progress func(done, total int)
}

func (o Options) compareOptions() CompareOptions {
	keys := o.Keys
	if o.KeysFrom != nil {
		keys = append(slices.Clone(keys), o.KeysFrom()...)
	}
	return CompareOptions{AnyOrder: o.AnyOrder, Keys: keys, Only: o.Only}
}

// ErrBroken marks an Evaluator error after which the implementation can
// answer nothing more (a crashed or silent process). Such a failure is
// reported as it happened, without shrinking; one while shrinking ends
// the shrinking, and the request it broke on is reported beside the
// disagreement found so far.
var ErrBroken = errors.New("the implementation stopped answering")

// Counterexample is the first snapshot on which an implementation and the
// engine disagree, shrunk.
type Counterexample struct {
	// Run is the index of the failing snapshot (0-based) and Seed the seed
	// it was drawn with.
	Run, Seed int
	// Objects is how many objects the snapshot had before shrinking.
	Objects int
	// File is the shrunk scenario (or, when the implementation broke on
	// the snapshot itself, the request it broke on), its Expect holding
	// the engine's answer, so that `condengine check` passes on it and
	// the implementation can be run against it.
	File *scenario.File
	// Differences are the disagreements on File, each re-checked by
	// asking the implementation again; Got is its answer to File, and
	// Err its error when it gave none (a *Refusal, or ErrBroken).
	Differences []Difference
	Got         []Object
	Err         error
	// Note says why File is not the smallest scenario shrinking found:
	// the implementation answered the shrunk one differently when asked
	// again, so the snapshot as drawn is shown.
	Note string
	// BrokeOn is the request the implementation broke on while it was
	// being shrunk, and BrokeErr how; File and Differences are then the
	// smallest disagreement confirmed before.
	BrokeOn  *scenario.File
	BrokeErr error
	// Command is the program YAML's closing comment tells the reader to
	// replay the file with (a command built with cmd/cli over other
	// systems); empty means condengine.
	Command string
}

// Error summarises the counterexample in one line.
func (c *Counterexample) Error() string {
	var refused *Refusal
	switch {
	case errors.As(c.Err, &refused):
		return fmt.Sprintf("snapshot %d (seed %d): %v; shrunk from %d objects to %d", c.Run, c.Seed, c.Err, c.Objects, len(c.File.Objects))
	case c.Err != nil:
		return fmt.Sprintf("snapshot %d (seed %d): the implementation failed: %v", c.Run, c.Seed, c.Err)
	}
	return fmt.Sprintf("snapshot %d (seed %d): %d difference(s), shrunk from %d objects to %d",
		c.Run, c.Seed, len(c.Differences), c.Objects, len(c.File.Objects))
}

// Report is the counterexample as a person reads it: the summary, each
// difference on its own line, then the scenario file with the
// differences and the implementation's answer as comments.
func (c *Counterexample) Report() string {
	out := c.Error() + "\n"
	if c.Note != "" {
		out += "note: " + c.Note + "\n"
	}
	if c.BrokeOn != nil {
		out += fmt.Sprintf("while shrinking, the implementation broke: %v\n", c.BrokeErr)
	}
	out += FormatDifferences(c.Differences)
	if y, err := c.YAML(); err == nil {
		out += "--- counterexample scenario ---\n" + string(y)
	}
	return out
}

// YAML is the counterexample scenario file, followed by comments: the
// differences and the implementation's answer, so the file alone shows
// what went wrong.
func (c *Counterexample) YAML() ([]byte, error) {
	y, err := ScenarioYAML(c.File)
	if err != nil {
		return nil, err
	}
	var tail strings.Builder
	comment := func(s string) {
		for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
			tail.WriteString(strings.TrimRight("# "+l, " ") + "\n")
		}
	}
	comment(c.Error())
	if c.Note != "" {
		comment("note: " + c.Note)
	}
	if len(c.Differences) > 0 {
		comment("differences (want is the engine's, got the implementation's):")
		comment(indentLines(FormatDifferences(c.Differences), "  "))
	}
	if c.Got != nil {
		if a, err := EncodeAnswer(c.Got); err == nil {
			comment("the implementation's answer:")
			comment("  " + string(a))
		}
	}
	comment("the expect block below is the engine's answer; replay with:")
	command := c.Command
	if command == "" {
		command = "condengine"
	}
	comment("  " + command + " conform --replay FILE --exec CMD")
	return append(y, tail.String()...), nil
}

func indentLines(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i := range lines {
		lines[i] = prefix + lines[i]
	}
	return strings.Join(lines, "\n")
}

// WriteFile writes the counterexample scenario (YAML) to path.
func (c *Counterexample) WriteFile(path string) error {
	y, err := c.YAML()
	if err != nil {
		return err
	}
	return os.WriteFile(path, y, 0o644)
}

// Generate draws snapshot seed of sys as a scenario without
// expectations, named after the system and the seed: sys.Generate's
// snapshot (for the seed systems, drawn by the rapid generators and
// pushed toward the rare cases: every HTTP class, three and more
// claimants, claims at the same second across namespaces, same-named
// objects elsewhere, long multibyte messages, int64 extremes, deletions
// before now, the status writer's memory, objects made again under
// their name).
//
// One seed in four, from seed 3 on (3, 7, 11, ...), is instead the
// scenario written from the next of sys's rules with an example (see
// conditions.Rule and the corpus's rule-*.yaml files), in the order of
// their file names and without its expectation, until each was handed
// out once: a run of 4×E snapshots from seed 0 reaches every such rule.
// A system without a generator cannot be drawn from.
func Generate(sys *system.System, seed int) (*scenario.File, error) {
	return generate(sys, seed, func(i int) ([]byte, error) { return ruleExample(sys, i) })
}

// generate is Generate handing out example(i), the scenario of the i-th
// rule with an example; nil when there is none.
func generate(sys *system.System, seed int, example func(i int) ([]byte, error)) (*scenario.File, error) {
	if seed%4 == 3 {
		text, err := example(seed / 4)
		if err != nil {
			return nil, err
		}
		if text != nil {
			f, err := scenario.Parse(text)
			if err != nil {
				return nil, err
			}
			f.Name = fmt.Sprintf("generated %s snapshot, seed %d: %s", sys.Name, seed, f.Name)
			f.Expect = nil
			return f, nil
		}
	}
	if sys.Generate == nil {
		return nil, fmt.Errorf("system %q has no generator (System.Generate), so no snapshot of it can be drawn", sys.Name)
	}
	f, err := sys.Generate(seed)
	if err != nil {
		return nil, err
	}
	f.Name = fmt.Sprintf("generated %s snapshot, seed %d", sys.Name, seed)
	return f, nil
}

// RunResult is what a differential run found: how many snapshots were
// compared, how many of them each rule of Rules decided a condition in
// (Reached), how many each decision outcome of the system
// (system.System.Decisions) came out in (Decisions), and the first
// disagreement (nil when there was none).
type RunResult struct {
	Runs           int
	Reached        map[string]int
	Decisions      map[string]int
	Counterexample *Counterexample
}

// Differential compares eval with the engine on opts.Runs generated
// snapshots of sys. It returns nil when they agree on every one, and
// otherwise the first disagreement, shrunk. The error is for a run that
// could not happen: a system without a generator, or a generated
// snapshot the engine itself refuses.
func Differential(sys *system.System, eval Evaluator, opts Options) (*Counterexample, error) {
	r, err := Run(sys, eval, opts)
	return r.Counterexample, err
}

// Run is Differential that also reports the rules and the decision
// outcomes the run reached (RunResult.Reached, RunResult.Decisions), and
// can run until every reachable rule and decision outcome was reached
// opts.UntilCoverage times.
func Run(sys *system.System, eval Evaluator, opts Options) (RunResult, error) {
	if opts.Runs <= 0 {
		opts.Runs = 100
	}
	if opts.ShrinkBudget <= 0 {
		opts.ShrinkBudget = 2000
	}
	if opts.Seed < 0 || opts.Seed > math.MaxInt-opts.Runs+1 {
		return RunResult{}, fmt.Errorf("seed %d with %d runs does not fit: seeds run from 0 to %d", opts.Seed, opts.Runs, math.MaxInt)
	}
	res := RunResult{Reached: map[string]int{}, Decisions: map[string]int{}}
	reachable, decisions := SystemRules(sys), SystemDecisions(sys)
	for i := range opts.Runs {
		if opts.UntilCoverage > 0 && covered(res.Reached, reachable, opts.UntilCoverage) &&
			covered(res.Decisions, decisions, opts.UntilCoverage) {
			break
		}
		seed := opts.Seed + i
		f, err := Generate(sys, seed)
		if err != nil {
			return res, err
		}
		// One explained run gives both the engine's answer and the rules
		// that decided it.
		outs, err := sys.Run(f, true)
		var want []Object
		if err == nil {
			want, err = fromOutcomes(sys, outs)
		}
		if err != nil {
			return res, fmt.Errorf("seed %d: the engine refuses its own snapshot: %w", seed, err)
		}
		for _, id := range reachedRules(outs) {
			res.Reached[id]++
		}
		for _, d := range reachedDecisions(sys, outs) {
			res.Decisions[d]++
		}
		res.Runs++
		got, evalErr := eval(f)
		var diffs []Difference
		if evalErr == nil {
			diffs = disagreement(f, want, got, opts)
		}
		if opts.Progress != nil {
			opts.Progress(res.Runs, opts.Runs)
		}
		if evalErr == nil && len(diffs) == 0 {
			continue
		}
		res.Counterexample = counterexample(sys, i, seed, f, want, got, diffs, evalErr, eval, opts)
		return res, nil
	}
	return res, nil
}

// disagreement is every difference of an answer: the comparison with the
// engine's, then what the API server would refuse.
func disagreement(f *scenario.File, want, got []Object, opts Options) []Difference {
	co := opts.compareOptions()
	diffs := CompareWith(want, got, co)
	if len(co.Only) > 0 {
		got = restrict(got, co.Only)
	}
	return append(diffs, Validate(f, got)...)
}

// counterexample shrinks the disagreement found on snapshot f and
// re-checks the result.
func counterexample(sys *system.System, run, seed int, f *scenario.File, want, got []Object, diffs []Difference, evalErr error,
	eval Evaluator, opts Options) *Counterexample {
	c := &Counterexample{Run: run, Seed: seed, Objects: len(f.Objects), File: f, Differences: diffs, Got: got, Err: evalErr}
	if errors.Is(evalErr, ErrBroken) {
		c.File = scenariogen.Clone(f)
		c.File.Name = fmt.Sprintf("the request the implementation failed on: %s snapshot, seed %d", sys.Name, seed)
		c.File.Expect = Expectations(want)
		return c
	}
	// The implementation may break on a candidate while shrinking: the
	// shrinking stops there, and both the request it broke on and the
	// smallest disagreement confirmed before are reported.
	type found struct {
		diffs []Difference
		got   []Object
		err   error
		want  []Object
	}
	last := found{diffs, got, evalErr, want}
	shrunk := shrink(f, func(s *scenario.File) (bool, bool) {
		w, g, d, err := disagree(sys, s, eval, opts)
		if errors.Is(err, ErrBroken) {
			c.BrokeOn, c.BrokeErr = scenariogen.Clone(s), err
			c.BrokeOn.Name = fmt.Sprintf("the request the implementation failed on: %s snapshot, seed %d", sys.Name, seed)
			c.BrokeOn.Expect = Expectations(w)
			return false, true
		}
		if err != nil || len(d) > 0 {
			last = found{d, g, err, w}
			return true, false
		}
		return false, false
	}, opts.ShrinkBudget)
	if c.BrokeOn == nil {
		// Re-check: ask again about the shrunk scenario, and show it only
		// if it still disagrees.
		w, g, d, err := disagree(sys, shrunk, eval, opts)
		switch {
		case errors.Is(err, ErrBroken):
			c.BrokeOn, c.BrokeErr = scenariogen.Clone(shrunk), err
			c.BrokeOn.Name = fmt.Sprintf("the request the implementation failed on: %s snapshot, seed %d", sys.Name, seed)
			c.BrokeOn.Expect = Expectations(w)
		case err != nil || len(d) > 0:
			last = found{d, g, err, w}
		default:
			c.Note = fmt.Sprintf("the shrunk scenario (%d objects) agreed when asked again, so the snapshot as drawn is shown: the implementation's answer depends on more than the request",
				len(shrunk.Objects))
			shrunk, last = f, found{diffs, got, evalErr, want}
		}
	}
	c.File, c.Differences, c.Got, c.Err, want = shrunk, last.diffs, last.got, last.err, last.want
	c.File = scenariogen.Clone(c.File)
	c.File.Name = fmt.Sprintf("counterexample: %s snapshot, seed %d, shrunk from %d objects", sys.Name, seed, c.Objects)
	c.File.Expect = Expectations(want)
	return c
}

// disagree asks the engine and the implementation about s and returns
// both answers and the differences; the error is the implementation's.
// A scenario the engine refuses never counts as a disagreement.
func disagree(sys *system.System, s *scenario.File, eval Evaluator, opts Options) (want, got []Object, diffs []Difference, err error) {
	want, werr := Reference(sys)(s)
	if werr != nil {
		return nil, nil, nil, nil
	}
	got, err = eval(s)
	if err != nil {
		return want, nil, nil, err
	}
	return want, got, disagreement(s, want, got, opts), nil
}

// Expectations turns the engine's answer into a scenario's expect block:
// per object the full conditions, in the engine's order, and every other
// status field.
func Expectations(want []Object) []scenario.Expectation {
	out := make([]scenario.Expectation, 0, len(want))
	for _, o := range want {
		conds := make([]scenario.ExpectedCondition, 0, len(o.Conditions))
		for _, c := range o.Conditions {
			gen, msg, at := c.ObservedGeneration, c.Message, c.LastTransitionTime
			ec := scenario.ExpectedCondition{Type: c.Type, Status: string(c.Status), Reason: c.Reason,
				ObservedGeneration: &gen, Message: &msg}
			if !at.IsZero() {
				ec.LastTransitionTime = &at
			}
			conds = append(conds, ec)
		}
		out = append(out, scenario.Expectation{Kind: o.Kind, Namespace: o.Namespace, Name: o.Name,
			Conditions: &conds, Status: o.Status})
	}
	return out
}

// Request is a scenario as a request line of the conform protocol: one
// line of JSON, the expect key left out.
func Request(f *scenario.File) ([]byte, error) {
	raw, err := json.Marshal(f)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	delete(m, "expect")
	return json.Marshal(m)
}

// ScenarioYAML writes f as a scenario file `condengine check` reads.
func ScenarioYAML(f *scenario.File) ([]byte, error) {
	raw, err := json.Marshal(f)
	if err != nil {
		return nil, err
	}
	return toYAML(raw)
}
