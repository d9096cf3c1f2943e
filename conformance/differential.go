package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/condengine/condengine/binding/bindingtest"
	"github.com/condengine/condengine/finops/finopstest"
	"github.com/condengine/condengine/scenario"
)

// Options tune a differential run. The zero value is usable.
type Options struct {
	// Runs is how many generated snapshots are compared; 0 means 100.
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
}

// ErrBroken marks an Evaluator error after which the implementation can
// answer nothing more (a crashed or silent process). Such a failure is
// reported as it happened, without shrinking; one while shrinking ends
// the shrinking, and the request it broke on is the counterexample.
var ErrBroken = errors.New("the implementation stopped answering")

// Counterexample is the first snapshot on which an implementation and the
// engine disagree, shrunk.
type Counterexample struct {
	// Run is the index of the failing snapshot (0-based) and Seed the seed
	// it was drawn with.
	Run, Seed int
	// Objects is how many objects the snapshot had before shrinking.
	Objects int
	// File is the shrunk scenario (or, when the implementation broke,
	// the request it broke on), its Expect holding the engine's answer,
	// so that `condengine check` passes on it and the implementation can
	// be run against it.
	File *scenario.File
	// Differences are the disagreements on the shrunk scenario; Err the
	// implementation's error when it gave no answer.
	Differences []Difference
	Err         error
}

// Error summarises the counterexample in one line.
func (c *Counterexample) Error() string {
	if c.Err != nil {
		return fmt.Sprintf("snapshot %d (seed %d): the implementation failed: %v", c.Run, c.Seed, c.Err)
	}
	return fmt.Sprintf("snapshot %d (seed %d): %d difference(s), shrunk from %d objects to %d",
		c.Run, c.Seed, len(c.Differences), c.Objects, len(c.File.Objects))
}

// Report is the counterexample as a person reads it: the summary, each
// difference on its own line, then the scenario file.
func (c *Counterexample) Report() string {
	out := c.Error() + "\n" + FormatDifferences(c.Differences)
	if y, err := c.YAML(); err == nil {
		out += "--- counterexample scenario ---\n" + string(y)
	}
	return out
}

// YAML is the shrunk scenario file.
func (c *Counterexample) YAML() ([]byte, error) { return ScenarioYAML(c.File) }

// WriteFile writes the shrunk scenario to path.
func (c *Counterexample) WriteFile(path string) error {
	y, err := c.YAML()
	if err != nil {
		return err
	}
	return os.WriteFile(path, y, 0o644)
}

// Generate draws snapshot seed of system with the project's rapid
// generators (bindingtest.SnapshotGen, finopstest.SnapshotGen) and
// writes it as a scenario without expectations.
func Generate(system string, seed int) (*scenario.File, error) {
	var f *scenario.File
	var err error
	switch system {
	case scenario.SystemBinding:
		f, err = BindingScenario(bindingtest.SnapshotGen().Example(seed))
	case scenario.SystemFinOps:
		f, err = FinOpsScenario(finopstest.SnapshotGen().Example(seed))
	default:
		return nil, fmt.Errorf("system %q is not %q or %q", system, scenario.SystemBinding, scenario.SystemFinOps)
	}
	if err != nil {
		return nil, err
	}
	f.Name = fmt.Sprintf("generated %s snapshot, seed %d", system, seed)
	return f, nil
}

// Differential compares eval with the engine on opts.Runs generated
// snapshots of system. It returns nil when they agree on every one, and
// otherwise the first disagreement, shrunk. The error is for a run that
// could not happen: an unknown system, or a generated snapshot the
// engine itself refuses.
func Differential(system string, eval Evaluator, opts Options) (*Counterexample, error) {
	if opts.Runs <= 0 {
		opts.Runs = 100
	}
	if opts.ShrinkBudget <= 0 {
		opts.ShrinkBudget = 2000
	}
	for i := range opts.Runs {
		seed := opts.Seed + i
		f, err := Generate(system, seed)
		if err != nil {
			return nil, err
		}
		want, err := Reference(f)
		if err != nil {
			return nil, fmt.Errorf("seed %d: the engine refuses its own snapshot: %w", seed, err)
		}
		got, evalErr := eval(f)
		var diffs []Difference
		if evalErr == nil {
			diffs = Compare(want, got)
		}
		if evalErr == nil && len(diffs) == 0 {
			continue
		}
		c := &Counterexample{Run: i, Seed: seed, Objects: len(f.Objects), File: f, Differences: diffs, Err: evalErr}
		if !errors.Is(evalErr, ErrBroken) {
			// The implementation may break on a candidate while shrinking:
			// that request is then the counterexample, and nothing more is
			// asked of it.
			var broken *scenario.File
			var brokenErr error
			c.File = shrink(f, func(s *scenario.File) (bool, bool) {
				disagrees, err := disagree(s, eval)
				if errors.Is(err, ErrBroken) {
					broken, brokenErr = s, err
					return false, true
				}
				return disagrees, false
			}, opts.ShrinkBudget)
			c.Differences, c.Err = nil, brokenErr
			if broken != nil {
				c.File = broken
			}
			want, _ = Reference(c.File)
			if c.Err == nil {
				if got, err := eval(c.File); err != nil {
					c.Err = err
				} else {
					c.Differences = Compare(want, got)
				}
			}
		}
		c.File.Name = fmt.Sprintf("counterexample: %s snapshot, seed %d, shrunk from %d objects", system, seed, c.Objects)
		if errors.Is(c.Err, ErrBroken) {
			c.File.Name = fmt.Sprintf("the request the implementation failed on: %s snapshot, seed %d", system, seed)
		}
		c.File.Expect = Expectations(want)
		return c, nil
	}
	return nil, nil
}

// disagree is the shrinking predicate: the engine accepts s, and the
// implementation answers differently or fails without breaking. When the
// implementation breaks on s, the error is returned and s does not count
// as a disagreement.
func disagree(s *scenario.File, eval Evaluator) (bool, error) {
	want, err := Reference(s)
	if err != nil {
		return false, nil
	}
	got, err := eval(s)
	if err != nil {
		if errors.Is(err, ErrBroken) {
			return false, err
		}
		return true, nil
	}
	return len(Compare(want, got)) > 0, nil
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
