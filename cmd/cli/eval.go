package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/bindingtest"
	finopsapi "github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/finops/finopstest"
	"github.com/condengine/condengine/manifest"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

func runEval(e env, args []string) int {
	c := e.Command
	fs := newFlags(e, "eval", "eval [-f FILE|-] [-o table|yaml|json] [-now RFC3339]")
	file := fs.String("f", "-", "a scenario file or a manifest stream (YAML or JSON, Lists expanded); - reads stdin")
	format := oneOf(fs, "o", "output `format`", "table", "yaml", "json")
	now := nowFlag(fs, "the evaluation `instant` for a manifest stream (RFC 3339); default: the current time. A scenario file has its own")
	if code, ok := parseArgless(e, fs, args, "; name the input with -f"); !ok {
		return code
	}

	name, in := "stdin", e.stdin
	if *file == "-" && stdinIsTerminal(in) {
		e.errorf("eval", "reading manifests from the terminal; end with Ctrl-D, or name a file with -f FILE (%s eval -h)", e.Name)
	}
	if *file != "-" {
		f, err := os.Open(*file)
		if err != nil {
			e.errorf("eval", "%v", err)
			return exitFail
		}
		defer f.Close()
		name, in = *file, f
	}
	in, restore := limitMemory(in)
	defer restore()
	err := c.evalTo(e.stdout, *format, name, in, *now, func(notes []string) {
		for _, msg := range notes {
			e.errorf("eval", "%s", msg)
		}
	})
	if err != nil {
		e.errorf("eval", "%v", err)
		return exitFail
	}
	return exitOK
}

// evalTo evaluates the scenario file or manifest stream r and writes its
// results to out in format, handing notes the remarks for stderr once
// the evaluation is over, before the rest of the output is written. In
// the yaml and json formats the Bindings of a stream are written as
// they are decided (evaluateStream); the table's columns are as wide as
// their widest cell, so it is written once everything is decided. An
// error in the evaluation leaves out empty.
func (c *Command) evalTo(out io.Writer, format, name string, r io.Reader, now time.Time, notes func([]string)) error {
	bw := bufio.NewWriterSize(out, 64<<10)
	list := listFor(bw, format)
	s := newStream(name, r)
	s.straight = true
	s.out = list
	w, err := c.evaluateFrom(s, now)
	if err != nil {
		return err
	}
	notes(w.notes)
	return renderRest(bw, list, w)
}

// stdinIsTerminal reports whether eval's input is a person at a
// terminal, who gets a word on how to end it; tests replace it.
var stdinIsTerminal = func(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && isTerminal(f)
}

// world is everything eval or demo computed, ready to print.
type world struct {
	now time.Time
	// bindings carry the computed conditions as their status.
	bindings []akv1.Binding
	// others are the FinOps objects (and any other kind a FinOps runner
	// reported), in the runner's order.
	others []evaluated
	// notes are non-fatal remarks for stderr (skipped documents).
	notes []string
	// inputs are the snapshots as read, for explain.
	inputs explainInputs
}

// evaluated is one non-Binding object after evaluation.
type evaluated struct {
	kind, namespace, name string
	created               time.Time
	// object is the manifest as read, for spec columns; status is the
	// computed status.
	object map[string]any
	status map[string]any
}

// evaluateInput reads a scenario file or a manifest stream and evaluates
// every object in it.
func (c *Command) evaluateInput(name string, r io.Reader, now time.Time) (*world, error) {
	s := newStream(name, r)
	s.straight = true
	return c.evaluateFrom(s, now)
}

// evaluateFrom is evaluateInput of the stream s.
func (c *Command) evaluateFrom(s *stream, now time.Time) (*world, error) {
	name := s.name
	s.ak = newAKObjects()
	first, err := s.rawDocument()
	if errors.Is(err, io.EOF) && s.ak.kept == 0 {
		return nil, &manifest.DocumentError{File: name, Err: errors.New("no documents")}
	}
	if errors.Is(err, io.EOF) {
		return c.evaluateStream(s, now)
	}
	if err != nil {
		return nil, err
	}
	// A scenario is a file of its own; its first document has no kind,
	// so it is never decoded straight.
	if s.ak.kept == 0 && looksLikeScenario(first.JSON) {
		f, err := scenario.FromDocument(s.r, first)
		if err != nil {
			return nil, err
		}
		if c.find(f.System) == nil {
			// Any system is a valid file; this build evaluates its own.
			return nil, first.FailAt("system", fmt.Errorf("scenario: system %q has no evaluator in this build; known: %s", f.System, c.knownSystems()))
		}
		return c.evaluateScenario(f)
	}
	s.unread(first)
	return c.evaluateStream(s, now)
}

// evaluateScenario evaluates a parsed scenario with its own now, broker,
// memory and probes.
func (c *Command) evaluateScenario(f *scenario.File) (*world, error) {
	w := &world{now: f.Now.Time}
	switch f.System {
	case bindingtest.Name:
		snap, err := bindingtest.Snapshot(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Path, err)
		}
		w.inputs.keepBindings(snap)
		if w.bindings, w.notes, err = evaluateBindings(snap, nil); err != nil {
			return nil, fmt.Errorf("%s: %w", f.Path, err)
		}
		return w, nil
	default:
		others, err := c.runOthers(f)
		if err != nil {
			return nil, err
		}
		w.inputs.finops = f
		w.others = others
		return w, nil
	}
}

// evaluateStream decodes a manifest stream one document at a time, keeping
// only the typed Bindings, AgentBackends and ChatConnections (never the
// raw text), and the FinOps manifests as JSON for their runner.
//
// Routing by API group is the command's own: a stream that mixes both
// systems is something `eval` accepts, while a library host decodes the
// one system it runs (binding.DecodeStream or finops.DecodeStream, which
// read through manifest.Each). Each document is still decoded by the
// library's own binding.DecodeDocument and finops.DecodeDocument, so a
// document reads the same in `eval` as in a host, except that a JSON
// document of Agent Kourier objects only (one object, or a List such as
// `kubectl get -o json` prints) is decoded straight into them when it
// can be (manifest.Reader.NextTyped), which gives the same objects, and
// otherwise takes the full reading and its errors; and stream.next
// expands Lists and refuses duplicates with manifest's ExpandNew, as
// manifest.Each does, pulling one document at a time so that a
// scenario's first document can be looked at before anything is
// decoded, and stopping at the first error.
func (c *Command) evaluateStream(s *stream, now time.Time) (*world, error) {
	if s.ak == nil {
		s.ak = newAKObjects()
	}
	objs, chunks, in := &s.ak.objs, &s.ak.chunks, s.ak.in
	finops := &scenario.File{Path: s.name, Name: s.name, System: finopstest.Name}
	finops.Now.Time = now
	var foreign []json.RawMessage
	var foreignAt []*manifest.DocumentError // where each foreign manifest came from
	var wheres []*manifest.DocumentError    // where each FinOps manifest came from
	skipped := 0
	for {
		d, err := s.next()
		if errors.Is(err, io.EOF) {
			s.seen = manifest.Identities{} // read to its end: no repeat can come
			break
		}
		if err != nil {
			return nil, err
		}
		switch d.Header.Group() {
		case akv1.GroupName:
			s.ak.reset()
			if err := binding.DecodeDocument(&s.ak.one, d); err != nil {
				return nil, err
			}
			s.ak.keep()
		case finopsv1.GroupName:
			if err := checkFinOps(d); err != nil {
				return nil, err
			}
			finops.Objects = append(finops.Objects, d.JSON)
			wheres = append(wheres, d.Fail(nil))
		default:
			// A Subscription's lifecycle.targetRef may name any kind, so
			// other objects go to FinOps when there is FinOps to evaluate.
			if err := checkFinOps(d); err != nil {
				return nil, err
			}
			foreign = append(foreign, d.JSON)
			foreignAt = append(foreignAt, d.Fail(nil))
			skipped++
		}
	}
	objs.Bindings = chunks.slice()
	w := &world{now: now}
	// The FinOps objects are evaluated first, apart from the Bindings,
	// so that their errors come before any Binding is written out.
	if len(finops.Objects) > 0 {
		finops.Objects = append(finops.Objects, foreign...)
		others, err := c.runOthers(finops)
		if err != nil {
			return nil, relocate(err, append(wheres, foreignAt...))
		}
		w.inputs.finops = finops
		w.others = others
	}
	if len(objs.Bindings)+len(objs.Backends)+len(objs.Connections) > 0 {
		objs.DefaultIdentity()
		snap := binding.Snapshot{
			Now:         now,
			Broker:      bindingtest.DefaultBroker(now),
			Bindings:    objs.Bindings,
			Backends:    objs.Backends,
			Connections: objs.Connections,
		}
		var err error
		if s.out == nil {
			w.inputs.keepBindings(snap)
			w.bindings, w.notes, err = evaluateBindings(snap, in)
		} else {
			w.notes, err = writeBindings(snap, s.out)
		}
		if err != nil {
			return nil, err
		}
	}
	if len(finops.Objects) == 0 && skipped > 0 {
		w.notes = append(w.notes, fmt.Sprintf("%s: skipped %d manifest(s) of other API groups: only Agent Kourier and FinOps kinds are evaluated", s.name, skipped))
	}
	return w, nil
}

// checkFinOps decodes one manifest as the FinOps decoder will, so that a
// wrong kind or a field of the wrong type is reported at its place in the
// stream.
func checkFinOps(d *manifest.Document) error {
	var s finopsapi.Snapshot
	return finopsapi.DecodeDocument(&s, d)
}

// relocate puts the FinOps runner's DocumentError, which counts documents
// among the objects it was given, at the manifest's place in the stream.
func relocate(err error, places []*manifest.DocumentError) error {
	var de *manifest.DocumentError
	if !errors.As(err, &de) || de.File != "" || de.Index < 1 || de.Index > len(places) {
		return err
	}
	at := *places[de.Index-1]
	at.Kind, at.Namespace, at.Name, at.Err = de.Kind, de.Namespace, de.Name, de.Err
	return &at
}

// evaluateBindings evaluates a Binding snapshot and returns its Bindings
// carrying the conditions they have afterwards: the written ones where a
// write is due, the current ones elsewhere (another broker's Bindings, a
// standby, the ConfigMap route). The snapshot's slice is written in
// place, as binding.ApplyInPlace would (binding.Apply's copy raised the
// peak of a 100k-Binding eval by up to 15%), from outcomes taken one at
// a time (binding.EvaluateEach): holding them all, with their condition
// lists, doubled what the evaluation adds to the snapshot. in, when set,
// shares the computed condition lists that are alike.
func evaluateBindings(snap binding.Snapshot, in *interner) ([]akv1.Binding, []string, error) {
	// The written lists wait here until the evaluation ends: EvaluateEach
	// must not see its snapshot change.
	written := make([][]metav1.Condition, len(snap.Bindings))
	notes, err := eachOutcome(snap, func(i int, conds []metav1.Condition) {
		if in != nil {
			conds = in.conditions(conds)
		}
		written[i] = conds
	})
	if err != nil {
		return nil, nil, err
	}
	for i, conds := range written {
		if conds != nil { // a written list always holds Accepted and Ready
			snap.Bindings[i].Status = akv1.BindingStatus{Conditions: conds}
		}
	}
	return snap.Bindings, notes, nil
}

// eachOutcome evaluates snap with binding.EvaluateEach, hands written
// the position and the conditions of each Binding whose status is to be
// written, in the order of the outputs, and returns the notes for
// stderr: the objects left out, then the problems with Bindings as
// input.
func eachOutcome(snap binding.Snapshot, written func(i int, conds []metav1.Condition)) ([]string, error) {
	var outcomeNotes []string
	res, err := binding.EvaluateEach(snap, func(i int, o binding.Outcome) {
		for _, p := range o.Errors {
			outcomeNotes = append(outcomeNotes, fmt.Sprintf("Binding %s: %s", manifest.JoinName(o.Namespace, o.Name), p))
		}
		if o.Write && o.Status.Conditions != nil {
			written(i, o.Status.Conditions)
		}
	})
	if err != nil {
		return nil, err
	}
	var notes []string
	for _, e := range res.Errors {
		notes = append(notes, fmt.Sprintf("%s %s left out: %s", e.Kind, manifest.JoinName(e.Namespace, e.Name), e.Problem))
	}
	return append(notes, outcomeNotes...), nil
}

// writeBindings evaluates snap and writes each Binding to out as soon as
// its outcome is decided: the outcomes come in the outputs' order, and
// the Bindings the engine hands on no outcome for (another broker's,
// those left out) are written between them, as read. Nothing is kept
// per Binding but its place in that order, and the snapshot is not
// changed.
func writeBindings(snap binding.Snapshot, out *listOut) ([]string, error) {
	bs := snap.Bindings
	ord := bindingOrder(bs)
	rank := make([]int32, len(bs))
	for r, i := range ord {
		rank[i] = int32(r)
	}
	next := 0 // ord[:next] is written
	var werr error
	upTo := func(r int) {
		for ; next < r && werr == nil; next++ {
			b := &bs[ord[next]]
			werr = out.binding(b, b.Status.Conditions)
		}
	}
	notes, err := eachOutcome(snap, func(i int, conds []metav1.Condition) {
		r := int(rank[i])
		if r < next && werr == nil {
			// EvaluateEach's order is the outputs' (namespace, name,
			// UID, each unique among outcomes); this would be a
			// Binding written twice.
			werr = fmt.Errorf("the outcome of Binding %s came out of the output's order", manifest.JoinName(bs[i].Namespace, bs[i].Name))
		}
		upTo(r)
		if werr == nil {
			werr = out.binding(&bs[i], conds)
			next = r + 1
		}
	})
	if err != nil {
		return nil, err
	}
	upTo(len(bs))
	return notes, werr
}

// runOthers evaluates a scenario of a system other than binding with the
// module's runner for it, and attaches to each outcome the manifest it
// came from.
func (c *Command) runOthers(f *scenario.File) ([]evaluated, error) {
	run, ok := system.Runners(c.Systems...)[f.System]
	if !ok {
		return nil, fmt.Errorf("%s: no evaluator for system %q in this build", f.Path, f.System)
	}
	outs, err := run(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, err)
	}
	type key struct{ kind, ns, name string }
	manifests := make(map[key]map[string]any, len(f.Objects))
	for i, raw := range f.Objects {
		var m map[string]any
		if err := decodeExact(raw, &m); err != nil {
			return nil, fmt.Errorf("%s: objects[%d]: %w", f.Path, i, manifest.FieldError(err))
		}
		md, _ := m["metadata"].(map[string]any)
		ns, _ := md["namespace"].(string)
		name, _ := md["name"].(string)
		kind, _ := m["kind"].(string)
		manifests[key{kind, ns, name}] = m
	}
	out := make([]evaluated, 0, len(outs))
	for _, o := range outs {
		ev := evaluated{kind: o.Kind, namespace: o.Namespace, name: o.Name, object: manifests[key{o.Kind, o.Namespace, o.Name}]}
		if len(o.Status) > 0 {
			if err := decodeExact(o.Status, &ev.status); err != nil {
				return nil, fmt.Errorf("%s: %s %s: computed status: %w", f.Path, o.Kind, manifest.JoinName(o.Namespace, o.Name), err)
			}
		}
		if ev.status == nil {
			ev.status = map[string]any{}
		}
		if len(o.Conditions) > 0 {
			conds := make([]any, 0, len(o.Conditions))
			for _, c := range o.Conditions {
				conds = append(conds, conditionMap(c))
			}
			ev.status["conditions"] = conds
		}
		if md, ok := ev.object["metadata"].(map[string]any); ok {
			if ts, ok := md["creationTimestamp"].(string); ok {
				ev.created, _ = time.Parse(time.RFC3339, ts)
			}
		}
		out = append(out, ev)
	}
	return out, nil
}

// decodeExact reads JSON into a generic value keeping every number as
// its decimal text (json.Number): through a float64, an integer above
// 2^53 would print as its neighbour, and one near 2^63 with the wrong
// sign.
func decodeExact(data []byte, into *map[string]any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(into)
}
