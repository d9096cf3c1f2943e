package scenario

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Part is one part of a host that a scenario file can exercise. Every
// file of an object's kind exercises the engine; a writer vector also
// needs the host's status writer, and a prober vector its prober. A host
// whose runner models only some parts declares them with
// Runners.Modelling, and the files that need another part are skipped
// with that reason instead of failing.
type Part string

// The parts, in the order Parts lists them.
const (
	// PartEngine is the evaluation itself: each object's conditions,
	// status, finalizer and whether a write is due.
	PartEngine Part = "engine"
	// PartWriter is the status writer's timing: a file with a writer
	// block, or one that expects a decision, waitUntil or fight verdict.
	PartWriter Part = "writer"
	// PartProber is the prober's schedule: a file with a prober block, or
	// one that expects an outcome of kind KindProber.
	PartProber Part = "prober"
)

// Parts lists the parts of a host the file exercises, in the order
// engine, writer, prober.
func (f *File) Parts() []Part {
	var engine, writer, prober bool
	writer = f.Writer != nil
	prober = f.Prober != nil
	for _, e := range f.Expect {
		if e.Kind == KindProber || e.Pass != nil {
			prober = true
			continue
		}
		engine = true
		if e.Decision != nil || e.WaitUntil != nil || e.Fight != nil || e.FightBegins != nil || e.ForeignEdit != nil {
			writer = true
		}
	}
	var out []Part
	for _, p := range []struct {
		on   bool
		part Part
	}{{engine, PartEngine}, {writer, PartWriter}, {prober, PartProber}} {
		if p.on {
			out = append(out, p.part)
		}
	}
	return out
}

// NotModelledError is the error a runner returns for a file that needs a
// part of a host the runner does not model. Runners.Run reports such a
// file as skipped (Result.Skip), not failed.
type NotModelledError struct {
	// Parts are the parts the file needs and the host does not model.
	Parts []Part
}

// Error reads "needs the prober, which this host does not model".
func (e *NotModelledError) Error() string {
	names := make([]string, len(e.Parts))
	for i, p := range e.Parts {
		names[i] = string(p)
	}
	return fmt.Sprintf("needs the %s, which this host does not model", strings.Join(names, " and the "))
}

// Modelling returns runners that run a file only when every part it
// needs is among parts, and otherwise return a *NotModelledError naming
// the parts missing, so the file is skipped with that reason. A host
// whose runner evaluates objects but has no status writer or prober of
// its own runs the corpus as
//
//	conformance.TestFS(t, rs.Modelling(scenario.PartEngine), conformance.Corpus())
//
// The receiver is not changed.
func (rs Runners) Modelling(parts ...Part) Runners {
	out := make(Runners, len(rs))
	for system, run := range rs {
		out[system] = func(f *File) ([]Outcome, error) {
			var missing []Part
			for _, p := range f.Parts() {
				if !slices.Contains(parts, p) {
					missing = append(missing, p)
				}
			}
			if len(missing) > 0 {
				return nil, &NotModelledError{Parts: missing}
			}
			return run(f)
		}
	}
	return out
}

// skipReason is the reason a runner's error gives to skip its file, or
// "" when the error is a real one.
func skipReason(err error) string {
	var nm *NotModelledError
	if errors.As(err, &nm) {
		return nm.Error()
	}
	return ""
}
