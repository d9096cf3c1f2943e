package conditionstest

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
)

// RuleTable is one kind's rule declarations as RuleProblems reads them:
// the table, the kind's vocabulary, which the checks build again from the
// table, and the source of the package that declares the rules and
// returns them.
type RuleTable struct {
	// Rules is the kind's table, in declaration order.
	Rules []conditions.Rule
	// Vocabulary is the kind's own: the checks keep its kind, API version
	// and condition types, and read the reasons again from a table. A
	// kind's rule IDs start with its kind in lower case and a slash.
	Vocabulary *conditions.Vocabulary
	// Arrange, when set, turns a table into the rules the kind's
	// vocabulary is read from, as the kind does (one rule per type, say).
	Arrange func([]conditions.Rule) []conditions.Rule
	// Sources maps the package's file names to their Go source, tests
	// left out; CheckRuleTable and CheckForgetting read them with
	// PackageSources when it is nil.
	Sources map[string]string
	// TrueNeedsNoAction lets a True write go without an action, for a
	// kind whose documentation leaves the reader nothing to do there.
	TrueNeedsNoAction bool
	// More reports the kind's own problems with a table (an order only
	// that kind keeps, say); nil when it has none.
	More func([]conditions.Rule) []string
}

// vocabulary builds the kind's vocabulary from table, as the kind builds
// its own from its rules.
func (k RuleTable) vocabulary(table []conditions.Rule) (*conditions.Vocabulary, error) {
	types := k.Vocabulary.Types()
	for i := range types {
		types[i].Reasons = nil
	}
	if k.Arrange != nil {
		table = k.Arrange(table)
	}
	return conditions.NewVocabulary(k.Vocabulary.APIVersion(), k.Vocabulary.Kind(), types, conditions.FromRules(table))
}

// RuleProblems reports every part of a rule or reason that a kind's
// declarations leave out or get wrong: a vocabulary that cannot be built
// from the table or does not hold a rule's writes (CheckRules),
// a rule left empty in the table, an ID outside the kind's prefix, a rule
// that decides a type and writes nothing, a write without a meaning or an
// action, a Reason constant that no rule writes, that is not named after
// its value or whose comment does not say which condition it goes with,
// a rule index that no function uses (no decision returns the rule), and
// a table of rules that the kind's rules variable does not join. The
// list is empty when the declarations are whole.
func RuleProblems(k RuleTable) []string {
	var probs []string
	vocab, err := k.vocabulary(k.Rules)
	if err != nil {
		return []string{err.Error()}
	}
	prefix := strings.ToLower(vocab.Kind()) + "/"
	probs = append(probs, CheckRules(k.Rules, []*conditions.Vocabulary{vocab})...)
	written := map[string]bool{}
	for i, r := range k.Rules {
		switch {
		case r.ID == "":
			probs = append(probs, fmt.Sprintf("rule %d is declared but left out of the table", i))
			continue
		case !strings.HasPrefix(r.ID, prefix):
			probs = append(probs, fmt.Sprintf("rule %s: the kind's IDs start with %s", r.ID, prefix))
		case r.Types != nil && len(r.Writes) == 0:
			probs = append(probs, fmt.Sprintf("rule %s writes nothing", r.ID))
		}
		for _, w := range r.Writes {
			written[w.Reason] = true
			if w.Meaning == "" || w.Action == "" && !(k.TrueNeedsNoAction && w.Status == metav1.ConditionTrue) {
				probs = append(probs, fmt.Sprintf("rule %s: %s %s lacks a meaning or an action", r.ID, w.Status, w.Reason))
			}
		}
	}
	if k.More != nil {
		probs = append(probs, k.More(k.Rules)...)
	}
	var types []string
	for _, t := range vocab.Types() {
		types = append(types, t.Name)
	}
	return append(probs, sourceProblems(k.Sources, written, types)...)
}

// sourceProblems reads the package's declarations: its Reason constants,
// its rule indexes and its rule tables.
func sourceProblems(srcs map[string]string, written map[string]bool, types []string) []string {
	var probs, indexes, tables []string
	used := map[string]bool{}   // names used inside a function
	joined := map[string]bool{} // names used in the rules variable
	fset := token.NewFileSet()
	for _, name := range slices.Sorted(maps.Keys(srcs)) {
		f, err := parser.ParseFile(fset, name, srcs[name], parser.ParseComments)
		if err != nil {
			return append(probs, err.Error())
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Body != nil {
					namesIn(d.Body, used)
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					vs, ok := spec.(*ast.ValueSpec)
					if !ok {
						continue
					}
					for k, id := range vs.Names {
						switch {
						case d.Tok == token.CONST && isIdent(vs.Type, "Reason"):
							probs = append(probs, reasonProblems(id.Name, valueAt(vs, k), doc(d, vs), written, types)...)
						case d.Tok == token.CONST && isRuleIndex(id.Name):
							indexes = append(indexes, id.Name)
						case d.Tok == token.VAR && id.Name == "rules":
							namesIn(valueAt(vs, k), joined)
						case d.Tok == token.VAR && isRuleTable(valueAt(vs, k)):
							tables = append(tables, id.Name)
						}
						// A function literal in a variable is code too.
						if k >= len(vs.Values) {
							continue
						}
						ast.Inspect(vs.Values[k], func(n ast.Node) bool {
							if fl, ok := n.(*ast.FuncLit); ok {
								namesIn(fl.Body, used)
								return false
							}
							return true
						})
					}
				}
			}
		}
	}
	for _, n := range indexes {
		if !used[n] {
			probs = append(probs, fmt.Sprintf("rule %s is declared but no decision returns it", n))
		}
	}
	for _, n := range tables {
		if !joined[n] {
			probs = append(probs, fmt.Sprintf("rule table %s is not joined into rules", n))
		}
	}
	return probs
}

// reasonProblems checks one Reason constant: a rule writes it, it is named
// after its value, and its comment says which condition it goes with. A
// constant set from another package's is taken to carry its own name's
// text.
func reasonProblems(name string, value ast.Expr, comment string, written map[string]bool, types []string) []string {
	var probs []string
	text := strings.TrimPrefix(name, "Reason")
	if lit, ok := value.(*ast.BasicLit); ok && strings.Trim(lit.Value, `"`) != text {
		probs = append(probs, fmt.Sprintf("reason %s is not named after its value %s", name, lit.Value))
	}
	if !written[text] {
		probs = append(probs, fmt.Sprintf("reason %s is declared but no rule writes it", name))
	}
	if !strings.Contains(comment, "goes with") || !slices.ContainsFunc(append(types, "every type"), func(t string) bool { return strings.Contains(comment, t) }) {
		probs = append(probs, fmt.Sprintf("reason %s: its comment does not say which condition it goes with", name))
	}
	return probs
}

// doc is the comment of a constant: its own, or its declaration's when
// the declaration holds that one constant alone.
func doc(d *ast.GenDecl, vs *ast.ValueSpec) string {
	if vs.Doc == nil && len(d.Specs) == 1 {
		return d.Doc.Text()
	}
	return vs.Doc.Text()
}

// namesIn adds every identifier under n to names.
func namesIn(n ast.Node, names map[string]bool) {
	if n == nil {
		return
	}
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			names[id.Name] = true
		}
		return true
	})
}

func valueAt(vs *ast.ValueSpec, k int) ast.Expr {
	if k < len(vs.Values) {
		return vs.Values[k]
	}
	return nil
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// isRuleIndex reports whether name is a rule's index constant: "rule"
// then a capital letter.
func isRuleIndex(name string) bool {
	return len(name) > 4 && strings.HasPrefix(name, "rule") && name[4] >= 'A' && name[4] <= 'Z'
}

// isRuleTable reports whether e is a slice or array literal of
// conditions.Rule.
func isRuleTable(e ast.Expr) bool {
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return false
	}
	arr, ok := lit.Type.(*ast.ArrayType)
	if !ok {
		return false
	}
	sel, ok := arr.Elt.(*ast.SelectorExpr)
	return ok && isIdent(sel.X, "conditions") && sel.Sel.Name == "Rule"
}

// CheckRuleTable fails t with each of RuleProblems' findings.
func CheckRuleTable(t testing.TB, k RuleTable) {
	t.Helper()
	for _, p := range RuleProblems(withSources(t, k)) {
		t.Error(p)
	}
}

// withSources is k with the package's sources when it names none.
func withSources(t testing.TB, k RuleTable) RuleTable {
	if k.Sources == nil {
		k.Sources = PackageSources(t)
	}
	return k
}

// PackageSources reads the Go files the package in the current directory
// builds from (a test runs there), tests left out, for RuleTable.Sources.
func PackageSources(t testing.TB) map[string]string {
	t.Helper()
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string]string, len(pkg.GoFiles))
	for _, f := range pkg.GoFiles {
		b, err := os.ReadFile(filepath.Join(pkg.Dir, f))
		if err != nil {
			t.Fatal(err)
		}
		out[f] = string(b)
	}
	return out
}

// Throwaway is a whole new reason for a kind, to be forgotten one part at
// a time by CheckForgetting: its rule and where it goes in the table.
// CheckForgetting adds to File the source a kind writes for it: the
// Reason constant ReasonThrowaway, commented with the conditions it goes
// with, the rule's index ruleThrowaway and a function returning the rule.
type Throwaway struct {
	// Rule is the new rule; it writes one reason, "Throwaway", not True.
	Rule conditions.Rule
	// At is where Rule goes in the table.
	At int
	// File is the package file the source is added to.
	File string
}

// source is the declarations of x's reason and rule index, and the
// function that returns the rule.
func (x Throwaway) source() (decl, returns string) {
	decl = fmt.Sprintf("const (\n\t// ReasonThrowaway goes with %s, %s.\n\tReasonThrowaway Reason = %q\n)\n\nconst ruleThrowaway = %d",
		strings.Join(x.Rule.Types, " and "), x.Rule.Writes[0].Status, x.Rule.Writes[0].Reason, x.At)
	return decl, "func throwaway() conditions.Verdict { return rules[ruleThrowaway].Verdict(0, \"\", 0) }"
}

// Spoil forgets one part of a new reason: it changes the table (and may
// return another) or the sources.
type Spoil func(table []conditions.Rule, srcs map[string]string) []conditions.Rule

// CheckForgetting adds x to a copy of k's table and sources and shows
// that RuleProblems finds nothing wrong with it, then that forgetting any
// one part of it (each of the common cases, then the kind's own in more)
// is found. So every test that calls CheckRuleTable on the kind fails
// when a part of a new reason is forgotten.
func CheckForgetting(t *testing.T, k RuleTable, x Throwaway, more map[string]Spoil) {
	t.Helper()
	k = withSources(t, k)
	decl, returns := x.source()
	whole := func() RuleTable {
		c := k
		c.Rules = slices.Insert(slices.Clone(k.Rules), x.At, x.Rule)
		c.Rules[x.At].Writes = slices.Clone(x.Rule.Writes)
		c.Sources = maps.Clone(k.Sources)
		c.Sources[x.File] += "\n\n" + decl + "\n\n" + returns + "\n"
		return c
	}
	if p := RuleProblems(whole()); len(p) > 0 {
		t.Fatalf("the whole throwaway reason is refused: %q", p)
	}
	other := 0
	if x.At == 0 {
		other = 1
	}
	cases := map[string]Spoil{
		"the rule left out of the table": func(r []conditions.Rule, _ map[string]string) []conditions.Rule {
			r[x.At] = conditions.Rule{}
			return r
		},
		"no sentence": func(r []conditions.Rule, _ map[string]string) []conditions.Rule { r[x.At].Sentence = ""; return r },
		"an ID of another kind": func(r []conditions.Rule, _ map[string]string) []conditions.Rule {
			r[x.At].ID = "other/x/throwaway"
			return r
		},
		"an ID used twice": func(r []conditions.Rule, _ map[string]string) []conditions.Rule {
			r[x.At].ID = r[other].ID
			return r
		},
		"no meaning": func(r []conditions.Rule, _ map[string]string) []conditions.Rule {
			r[x.At].Writes[0].Meaning = ""
			return r
		},
		"no action": func(r []conditions.Rule, _ map[string]string) []conditions.Rule {
			r[x.At].Writes[0].Action = ""
			return r
		},
		"no reason written": func(r []conditions.Rule, _ map[string]string) []conditions.Rule { r[x.At].Writes = nil; return r },
		"the reason constant written by no rule": func(r []conditions.Rule, _ map[string]string) []conditions.Rule {
			r[x.At].Writes[0].Reason = "Throwaway2"
			return r
		},
		"a pair of another rule with other text": func(r []conditions.Rule, _ map[string]string) []conditions.Rule {
			r[x.At].Writes = append(r[x.At].Writes, otherWrite(r, x))
			return r
		},
		"no code returns the rule": func(r []conditions.Rule, srcs map[string]string) []conditions.Rule {
			srcs[x.File] = strings.Replace(srcs[x.File], returns, "", 1)
			return r
		},
		"no comment on the reason": func(r []conditions.Rule, srcs map[string]string) []conditions.Rule {
			srcs[x.File] = strings.Replace(srcs[x.File], decl, uncommented(decl), 1)
			return r
		},
		"a rule table not joined into rules": func(r []conditions.Rule, srcs map[string]string) []conditions.Rule {
			srcs[x.File] += "\n\nvar throwawayRules = [...]conditions.Rule{}\n"
			return r
		},
	}
	for name, spoil := range more {
		cases[name] = spoil
	}
	for _, name := range slices.Sorted(maps.Keys(cases)) {
		t.Run(name, func(t *testing.T) {
			c := whole()
			c.Rules = cases[name](c.Rules, c.Sources)
			if len(RuleProblems(c)) == 0 {
				t.Errorf("forgetting %s goes unnoticed", name)
			}
		})
	}
}

// otherWrite is a pair another rule of x's first type writes, with other
// text: a second declaration of it that FromRules refuses.
func otherWrite(table []conditions.Rule, x Throwaway) conditions.Reason {
	for i, r := range table {
		if i == x.At || !slices.Contains(r.Types, x.Rule.Types[0]) {
			continue
		}
		for _, w := range r.Writes {
			if w.Status != metav1.ConditionTrue {
				w.Meaning += " Other."
				return w
			}
		}
	}
	return conditions.Reason{}
}

// uncommented is src without its comment lines.
func uncommented(src string) string {
	var kept []string
	for _, l := range strings.Split(src, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "//") {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "\n")
}

// CheckRules reports the problems of a rule table: an ID repeated or not
// of the form kind/..., a sentence that is empty or not one line, a pair
// the kind's vocabulary does not list. vocabs is looked up by kind. The
// list is empty when the table is sound.
func CheckRules(rules []conditions.Rule, vocabs []*conditions.Vocabulary) []string {
	var probs []string
	seen := map[string]bool{}
	for _, r := range rules {
		if seen[r.ID] {
			probs = append(probs, fmt.Sprintf("rule %s is declared twice", r.ID))
		}
		seen[r.ID] = true
		if r.ID == "" || r.ID != strings.ToLower(r.ID) || !strings.Contains(r.ID, "/") {
			probs = append(probs, fmt.Sprintf("rule %q: an ID is kind/type/name in lower case", r.ID))
		}
		if r.Sentence == "" || strings.ContainsAny(r.Sentence, "\n\r") {
			probs = append(probs, fmt.Sprintf("rule %s: the sentence must be one non-empty line", r.ID))
		}
		if r.Kind == "" {
			continue
		}
		i := slices.IndexFunc(vocabs, func(v *conditions.Vocabulary) bool { return v.Kind() == r.Kind })
		if i < 0 {
			probs = append(probs, fmt.Sprintf("rule %s: no vocabulary for kind %s", r.ID, r.Kind))
			continue
		}
		for _, t := range r.Types {
			if !vocabs[i].Has(t) {
				probs = append(probs, fmt.Sprintf("rule %s: %s has no condition type %s", r.ID, r.Kind, t))
			}
		}
		for _, p := range r.Writes {
			if !slices.ContainsFunc(r.Types, func(t string) bool { _, ok := vocabs[i].Lookup(t, p.Status, p.Reason); return ok }) {
				probs = append(probs, fmt.Sprintf("rule %s: %s %s is not in the vocabulary of %v", r.ID, p.Status, p.Reason, r.Types))
			}
		}
	}
	return probs
}
