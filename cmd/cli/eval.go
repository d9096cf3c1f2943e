package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

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
// the yaml and json formats the objects of a stream that a system reads
// itself (system.Stream) are written as they are decided
// (evaluateStream); the table's columns are as wide as their widest
// cell, so it is written once everything is decided. An error in the
// evaluation leaves out empty.
func (c *Command) evalTo(out io.Writer, format, name string, r io.Reader, now time.Time, notes func([]string)) error {
	bw := bufio.NewWriterSize(out, 64<<10)
	list := listFor(bw, format)
	s := c.newStream(name, r)
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

// world is everything eval, explain or demo computed, ready to print:
// each system's share of the input and its evaluation, in the order of
// the command's systems.
type world struct {
	now   time.Time
	parts []*part
	// notes are non-fatal remarks for stderr (skipped documents).
	notes []string
}

// part is one system's share of the input and what became of it.
type part struct {
	sys *system.System
	// stream is the system's own reading and evaluation
	// (system.System.Stream); nil for the general path, which reads the
	// manifests as JSON into file and runs the system on it.
	stream system.Stream
	// file is the general path's input, kept for explain, and places
	// where each of its objects came from in the stream; objects are
	// the outcomes of its run.
	file    *scenario.File
	places  []*manifest.DocumentError
	objects []evaluated
	// written says the part's objects were written as they were decided.
	written bool
}

// evaluated is one object of the general path after evaluation.
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
	s := c.newStream(name, r)
	s.straight = true
	return c.evaluateFrom(s, now)
}

// evaluateFrom is evaluateInput of the stream s.
func (c *Command) evaluateFrom(s *stream, now time.Time) (*world, error) {
	name := s.name
	first, err := s.rawDocument()
	if errors.Is(err, io.EOF) && s.decoded == 0 {
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
	if s.decoded == 0 && looksLikeScenario(first.JSON) {
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

// evaluateScenario evaluates a parsed scenario of one of c's systems
// with its own now and its system's blocks.
func (c *Command) evaluateScenario(f *scenario.File) (*world, error) {
	w := &world{now: f.Now.Time}
	p := &part{sys: c.find(f.System)}
	if p.sys.Stream != nil {
		p.stream = p.sys.Stream()
		if err := p.stream.Scenario(f); err != nil {
			return nil, err
		}
		notes, err := p.stream.Evaluate(f.Now.Time, nil)
		if err != nil {
			return nil, err
		}
		w.notes = notes
	} else {
		p.file = f
		if err := p.run(); err != nil {
			return nil, err
		}
	}
	w.parts = []*part{p}
	return w, nil
}

// evaluateStream reads a manifest stream one document at a time and
// hands each manifest to the system that reads it (router): a system
// with its own reading (system.Stream) decodes it into its types (never
// keeping the raw text), the others get it as JSON, checked at its
// place in the stream (system.System.Check), for their Run. A manifest
// no system claims goes to the systems that read other kinds than their
// own (system.System.References: a Subscription's target may be of any
// kind), when they have objects of their own in the stream; otherwise
// it is skipped with a note.
//
// Routing is the command's own: a stream that mixes systems is
// something eval accepts, while a library host decodes the one system
// it runs. stream.next expands Lists and refuses duplicates with
// manifest's ExpandNew, as manifest.Each does, pulling one document at
// a time so that a scenario's first document can be looked at before
// anything is decoded, and stopping at the first error.
//
// The systems read as JSON are evaluated first, apart from the others,
// so that their errors come before any object is written out.
func (c *Command) evaluateStream(s *stream, now time.Time) (*world, error) {
	var foreign []json.RawMessage
	var foreignAt []*manifest.DocumentError // where each foreign manifest came from
	for {
		d, err := s.next()
		if errors.Is(err, io.EOF) {
			s.seen = manifest.Identities{} // read to its end: no repeat can come
			break
		}
		if err != nil {
			return nil, err
		}
		i := s.route.find(d.Header.Group(), d.Header.Kind)
		if i < 0 {
			for _, p := range s.parts {
				if p.sys.References != nil && p.sys.Check != nil {
					if err := p.sys.Check(d); err != nil {
						return nil, err
					}
				}
			}
			foreign = append(foreign, d.JSON)
			foreignAt = append(foreignAt, d.Fail(nil))
			continue
		}
		p := s.parts[i]
		if p.stream != nil {
			if err := p.stream.Add(d); err != nil {
				return nil, err
			}
			continue
		}
		if p.sys.Check != nil {
			if err := p.sys.Check(d); err != nil {
				return nil, err
			}
		}
		p.file.Objects = append(p.file.Objects, d.JSON)
		p.places = append(p.places, d.Fail(nil))
	}
	w := &world{now: now}
	took := false
	for _, p := range s.parts {
		if p.stream != nil || len(p.file.Objects) == 0 {
			continue
		}
		if p.sys.References != nil && len(foreign) > 0 {
			p.file.Objects = append(p.file.Objects, foreign...)
			p.places = append(p.places, foreignAt...)
			took = true
		}
		p.file.Now.Time = now
		if err := p.run(); err != nil {
			return nil, relocate(err, p.places)
		}
	}
	for _, p := range s.parts {
		switch {
		case p.stream != nil:
			var each func(*system.Object) error
			if s.out != nil {
				each, p.written = s.out.object, true
			}
			notes, err := p.stream.Evaluate(now, each)
			if err != nil {
				return nil, err
			}
			w.notes = append(w.notes, notes...)
		case len(p.file.Objects) == 0:
			continue
		case s.out != nil:
			// Written now, so that they come before the next system's
			// objects, written as decided.
			if err := s.out.objects(p); err != nil {
				return nil, err
			}
			p.written = true
		}
		w.parts = append(w.parts, p)
	}
	if !took && len(foreign) > 0 {
		w.notes = append(w.notes, fmt.Sprintf("%s: skipped %d manifest(s) of other API groups: only the kinds of %s are evaluated",
			s.name, len(foreign), andList(c.groups())))
	}
	return w, nil
}

// relocate puts a runner's DocumentError, which counts documents among
// the objects it was given, at the manifest's place in the stream.
func relocate(err error, places []*manifest.DocumentError) error {
	var de *manifest.DocumentError
	if !errors.As(err, &de) || de.File != "" || de.Index < 1 || de.Index > len(places) {
		return err
	}
	at := *places[de.Index-1]
	at.Kind, at.Namespace, at.Name, at.Err = de.Kind, de.Namespace, de.Name, de.Err
	return &at
}

// run evaluates the part's file with its system's Run, and attaches to
// each outcome the manifest it came from.
func (p *part) run() error {
	f := p.file
	if p.sys.Run == nil {
		return fmt.Errorf("%s: system %q has no Run", f.Path, p.sys.Name)
	}
	outs, err := p.sys.Run(f, false)
	if err != nil {
		return fmt.Errorf("%s: %w", f.Path, err)
	}
	type key struct{ kind, ns, name string }
	manifests := make(map[key]map[string]any, len(f.Objects))
	for i, raw := range f.Objects {
		var m map[string]any
		if err := decodeExact(raw, &m); err != nil {
			return fmt.Errorf("%s: objects[%d]: %w", f.Path, i, manifest.FieldError(err))
		}
		md, _ := m["metadata"].(map[string]any)
		ns, _ := md["namespace"].(string)
		name, _ := md["name"].(string)
		kind, _ := m["kind"].(string)
		manifests[key{kind, ns, name}] = m
	}
	p.objects = make([]evaluated, 0, len(outs))
	for _, o := range outs {
		ev := evaluated{kind: o.Kind, namespace: o.Namespace, name: o.Name, object: manifests[key{o.Kind, o.Namespace, o.Name}]}
		if len(o.Status) > 0 {
			if err := decodeExact(o.Status, &ev.status); err != nil {
				return fmt.Errorf("%s: %s %s: computed status: %w", f.Path, o.Kind, manifest.JoinName(o.Namespace, o.Name), err)
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
		p.objects = append(p.objects, ev)
	}
	return nil
}

// groups are the API groups of the kinds c's systems write to, in
// order, each once.
func (c *Command) groups() []string {
	var out []string
	for _, s := range c.Systems {
		for _, k := range s.Kinds {
			if (k.Vocabulary != nil || k.Status || k.Finalizer != "") && !slices.Contains(out, k.Group) {
				out = append(out, k.Group)
			}
		}
	}
	return out
}

// andList is "a, b and c".
func andList(values []string) string {
	if len(values) < 2 {
		return strings.Join(values, "")
	}
	return strings.Join(values[:len(values)-1], ", ") + " and " + values[len(values)-1]
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
