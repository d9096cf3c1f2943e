package cli

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/condengine/condengine/explain"
	"github.com/condengine/condengine/manifest"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
	"github.com/condengine/condengine/vocab"
)

func runExplain(e env, args []string) int {
	c := e.Command
	fs := newFlags(e, "explain", "explain -f FILE|- [KIND [NAME|NAMESPACE/NAME] | KIND/NAME] [-n NAMESPACE] [-o tree|json] [-now RFC3339]\n       "+e.Name+" explain -rules [-o markdown|json] [-out FILE]")
	file := fs.String("f", "", "a scenario file or a manifest stream (YAML or JSON); - reads stdin")
	format := fs.String("o", "", "output format: tree or json (default tree); with -rules, markdown or json (default markdown)")
	now := nowFlag(fs, "the evaluation `instant` for a manifest stream (RFC 3339); default: the current time")
	rules := fs.Bool("rules", false, "print the rule table instead of explaining objects")
	out := fs.String("out", "", "with -rules: write the markdown table to `FILE` (docs/rules.md)")
	var namespace string
	fs.StringVar(&namespace, "n", "", "only objects of this `NAMESPACE` (default: every namespace of the input)")
	fs.StringVar(&namespace, "namespace", "", "the same as -n")
	pos, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	if *rules {
		return c.explainRules(e, pos, *format, *out, *file)
	}
	if *out != "" {
		return usageError(e, "explain", "-out goes with -rules")
	}
	if *file == "" {
		return usageError(e, "explain", "name the input with -f FILE (or -f - for stdin)")
	}
	switch *format {
	case "":
		*format = "tree"
	case "tree", "json":
	default:
		return usageError(e, "explain", "-o %q: want tree or json", *format)
	}
	kind, ns, name, err := c.explainTarget(pos, namespace)
	if err != nil {
		return usageError(e, "explain", "%v", err)
	}

	inName, in := "stdin", io.Reader(e.stdin)
	if *file != "-" {
		f, err := os.Open(*file)
		if err != nil {
			e.errorf("explain", "%v", err)
			return exitFail
		}
		defer f.Close()
		inName, in = *file, f
	}
	in, restore := limitMemory(in)
	defer restore()
	w, err := c.evaluateInput(inName, in, *now)
	if err != nil {
		e.errorf("explain", "%v", err)
		return exitFail
	}
	for _, msg := range w.notes {
		e.errorf("explain", "%s", msg)
	}
	objs, err := c.explainWorld(w)
	if err != nil {
		e.errorf("explain", "%v", err)
		return exitFail
	}
	objs = slices.DeleteFunc(objs, func(x explain.Object) bool {
		return kind != "" && x.Kind != kind || name != "" && x.Name != name || ns != "" && x.Namespace != ns
	})
	if w.empty() {
		e.errorf("explain", "nothing to explain in %s: it holds no object of a kind of %s", inName, orList(c.groups()))
		return exitFail
	}
	if len(objs) == 0 && (kind != "" || ns != "") {
		what := cmp.Or(kind, "object")
		switch {
		case name != "":
			e.errorf("explain", "no %s %s in %s", what, manifest.JoinName(ns, name), inName)
		case ns != "":
			e.errorf("explain", "no %s in namespace %s of %s", what, ns, inName)
		default:
			e.errorf("explain", "no %s in %s", what, inName)
		}
		return exitFail
	}
	write := explain.WriteTree
	if *format == "json" {
		write = explain.WriteJSON
	}
	if err := write(e.stdout, objs); err != nil {
		e.errorf("explain", "%v", err)
		return exitFail
	}
	return exitOK
}

// explainTarget reads explain's arguments as kubectl reads them: KIND,
// KIND NAME or KIND/NAME, with the namespace from -n; NAMESPACE/NAME is
// still accepted for the name. KIND is any name system.ResolveKind reads
// as a kind with conditions of c's systems (Binding, bindings,
// akbinding, ...). An empty result selects every object (or every one
// of the namespace).
func (c *Command) explainTarget(pos []string, namespace string) (kind, ns, name string, err error) {
	if len(pos) == 1 && strings.Contains(pos[0], "/") {
		k, n, _ := strings.Cut(pos[0], "/")
		if k == "" || n == "" || strings.Contains(n, "/") {
			return "", "", "", fmt.Errorf("name the object as KIND NAME or KIND/NAME, not %q", pos[0])
		}
		pos = []string{k, n}
	}
	if len(pos) > 2 {
		return "", "", "", fmt.Errorf("at most KIND and NAME, got %d arguments", len(pos))
	}
	ns = namespace
	if len(pos) > 0 {
		k, err := system.ResolveKind(pos[0], c.Systems...)
		if err != nil {
			return "", "", "", err
		}
		kind = k.Kind
	}
	if len(pos) > 1 {
		name = pos[1]
		if a, b, ok := strings.Cut(name, "/"); ok {
			if a != "" && namespace != "" && namespace != a {
				return "", "", "", fmt.Errorf("%q names namespace %s, -n says %s", name, a, namespace)
			}
			ns, name = a, b
		}
		if ns == "" && strings.Contains(pos[1], "/") || name == "" || strings.Contains(name, "/") {
			return "", "", "", fmt.Errorf("name the object as NAME or NAMESPACE/NAME, not %q", pos[1])
		}
	}
	return kind, ns, name, nil
}

// explainWorld evaluates the inputs of w again with provenance and
// lists every object with conditions (explain.FromOutcomes), in the
// order of the vocabularies, then namespace and name.
func (c *Command) explainWorld(w *world) ([]explain.Object, error) {
	sentences := explain.Sentences(c.rules())
	var out []explain.Object
	for _, p := range w.parts {
		var outs []scenario.Outcome
		var err error
		if p.stream != nil {
			outs, err = p.stream.Explain()
		} else if outs, err = p.sys.Run(p.file, true); err != nil {
			err = fmt.Errorf("%s: %w", p.file.Path, err)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, explain.FromOutcomes(outs, sentences)...)
	}
	rank := map[string]int{}
	for i, v := range c.vocabularies() {
		rank[v.Kind()] = i
	}
	slices.SortStableFunc(out, func(a, b explain.Object) int {
		return cmp.Or(cmp.Compare(rank[a.Kind], rank[b.Kind]), cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	return out, nil
}

// errStop ends a walk over a Stream's objects early.
var errStop = errors.New("stop")

// empty reports whether w holds no object a system evaluated.
func (w *world) empty() bool {
	for _, p := range w.parts {
		if p.stream == nil {
			if len(p.objects) > 0 {
				return false
			}
			continue
		}
		if errors.Is(p.stream.Objects(func(*system.Object) error { return errStop }), errStop) {
			return false
		}
	}
	return true
}

// explainRules prints or writes the rule table.
func (c *Command) explainRules(e env, pos []string, format, out, file string) int {
	if len(pos) > 0 || file != "" {
		return usageError(e, "explain", "-rules takes neither -f nor arguments")
	}
	rules := c.rules()
	switch format {
	case "", "markdown":
		var b strings.Builder
		_ = vocab.RulesMarkdown(&b, rules, c.rulesNote(out)) // a strings.Builder does not fail
		if out != "" {
			if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
				e.errorf("explain", "%v", err)
				return exitFail
			}
			return exitOK
		}
		io.WriteString(e.stdout, b.String())
	case "json":
		if out != "" {
			return usageError(e, "explain", "-out writes markdown; drop -o json")
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rules); err != nil {
			e.errorf("explain", "%v", err)
			return exitFail
		}
	default:
		return usageError(e, "explain", "-o %q: with -rules, want markdown or json", format)
	}
	return exitOK
}

// rulesNote is the note under the title of the rule table written to
// out (docs/rules.md when printed).
func (c *Command) rulesNote(out string) string {
	if out == "" {
		out = "docs/rules.md"
	}
	return c.generatedBy(c.Name+" explain -rules -out "+out) + " from the rule tables of the evaluators. " + c.doNotEdit("this file is") + "\n\n" +
		"Every condition the engine writes names one of these rules in its provenance (`Explain` in each package, `" + c.Name + " explain` on the command line). Provenance evidence is raw: it may name other namespaces' objects and hosts, so it belongs in logs and tools, never in a status.\n"
}

// generatedBy says how a generated file is made again: by Generate,
// which runs line, or by line alone.
func (c *Command) generatedBy(line string) string {
	if c.Generate == "" {
		return "Generated by `" + line + "`"
	}
	return "Generated by `" + c.Generate + "` (`" + line + "`)"
}

// doNotEdit asks for no edit by hand; with Generate, whose tests hold
// the files current, it says that a test fails when they are stale.
func (c *Command) doNotEdit(these string) string {
	if c.Generate == "" {
		return "Do not edit by hand."
	}
	return "Do not edit by hand: a test fails when " + these + " stale."
}
