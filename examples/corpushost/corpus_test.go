// Package corpushost is a host module's test as a user writes it: it
// imports package conformance alone and runs the embedded scenario corpus
// through an evaluator of its own.
package corpushost

import (
	"sync/atomic"
	"testing"

	"github.com/condengine/condengine/conformance"
)

// hostRunners wraps each of the library's runners in host code, as a host
// would put its own reconcile in front of them, and counts the calls.
func hostRunners(calls *atomic.Int64, mutate func([]conformance.Outcome)) map[string]conformance.Runner {
	out := map[string]conformance.Runner{}
	for system, engine := range conformance.Runners() {
		out[system] = func(f *conformance.File) ([]conformance.Outcome, error) {
			calls.Add(1)
			got, err := engine(f)
			if mutate != nil {
				mutate(got)
			}
			return got, err
		}
	}
	return out
}

// Each corpus file is a subtest named after it:
// go test -run 'Corpus/ready-all-true'.
func TestCorpus(t *testing.T) {
	var calls atomic.Int64
	rs := conformance.Runners()
	for system, r := range hostRunners(&calls, nil) {
		rs[system] = r
	}
	conformance.TestFS(t, rs, conformance.Corpus())
	if calls.Load() < 200 {
		t.Fatalf("the host's evaluator ran %d times; the corpus has more files", calls.Load())
	}
}

// A host evaluator that drops the last condition of every object fails
// the corpus: the runner reports it rather than passing silently.
func TestCorpus_WrongEvaluatorFails(t *testing.T) {
	var calls atomic.Int64
	rs := conformance.Runners()
	for system, r := range hostRunners(&calls, func(outs []conformance.Outcome) {
		for i := range outs {
			if n := len(outs[i].Conditions); n > 0 {
				outs[i].Conditions = outs[i].Conditions[:n-1]
			}
		}
	}) {
		rs[system] = r
	}
	results, err := rs.RunFS(conformance.Corpus())
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	for _, r := range results {
		if !r.Passed() {
			failed++
		}
	}
	if failed < len(results)/2 {
		t.Fatalf("only %d of %d scenarios caught the dropped condition", failed, len(results))
	}
}
