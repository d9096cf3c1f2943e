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
)

// SourceProblems reports what a kind's rule table cannot say about the
// package that declares it, read from that package's Go source (files
// maps file names to source, tests left out). It holds the package to
// three conventions, and reports a package that does not follow one
// (nothing found where the convention says to look) rather than pass it:
//
//  1. Reason constants. The kind's reasons are package-level constants
//     named Reason and then the reason ("ReasonReady", typed or not).
//     Each is written by a rule of the table, equals its name without
//     the prefix when it is a string literal (a constant set from another
//     package's is taken to), and its comment says which condition it
//     goes with: the words "goes with" and a type of the vocabulary, or
//     "every type".
//  2. Rule indexes. Each rule has a package-level constant named rule and
//     then a capital letter ("ruleReadyOK"), its position in the table;
//     each is used inside a function, where a decision returns the rule.
//  3. One table. A package-level variable named rules joins every
//     package-level variable whose value is a literal list of
//     conditions.Rule.
//
// A kind that follows none of them checks its table with CheckRuleTable
// alone.
func SourceProblems(k RuleTable, files map[string]string) []string {
	if len(files) == 0 {
		return []string{"no Go source to read: SourceProblems reads the package that declares the rules"}
	}
	if k.Vocabulary == nil {
		return []string{"RuleTable.Vocabulary is nil: the reasons' comments are read against its types"}
	}
	written := map[string]bool{}
	for _, r := range k.Rules {
		for _, w := range r.Writes {
			written[w.Reason] = true
		}
	}
	var types []string
	for _, t := range k.Vocabulary.Types() {
		types = append(types, t.Name)
	}
	d, probs := readDecls(files)
	if d == nil {
		return probs
	}
	kind := k.Vocabulary.Kind()
	if len(d.reasons) == 0 {
		probs = append(probs, fmt.Sprintf("%s: the source declares no constant named Reason… (convention 1 of SourceProblems)", kind))
	}
	for _, c := range d.reasons {
		probs = append(probs, reasonProblems(kind, c, written, types)...)
	}
	if len(d.indexes) == 0 {
		probs = append(probs, fmt.Sprintf("%s: the source declares no rule index constant named rule… (convention 2 of SourceProblems)", kind))
	}
	for _, n := range d.indexes {
		if !d.used[n] {
			probs = append(probs, fmt.Sprintf("%s: rule %s is declared but no decision returns it", kind, n))
		}
	}
	if !d.hasRules {
		probs = append(probs, fmt.Sprintf("%s: the source declares no variable rules that joins the rule tables (convention 3 of SourceProblems)", kind))
	}
	for _, n := range d.tables {
		if !d.joined[n] {
			probs = append(probs, fmt.Sprintf("%s: rule table %s is not joined into rules", kind, n))
		}
	}
	return probs
}

// reasonConst is one Reason… constant of the source.
type reasonConst struct {
	name    string
	value   ast.Expr
	comment string
}

// decls is what SourceProblems reads of a package's declarations.
type decls struct {
	reasons  []reasonConst
	indexes  []string
	tables   []string
	hasRules bool
	used     map[string]bool // names used inside a function
	joined   map[string]bool // names used in the rules variable
}

// readDecls parses files, in name order, for their declarations; a file
// that does not parse is the only problem reported.
func readDecls(files map[string]string) (*decls, []string) {
	d := &decls{used: map[string]bool{}, joined: map[string]bool{}}
	fset := token.NewFileSet()
	for _, name := range slices.Sorted(maps.Keys(files)) {
		f, err := parser.ParseFile(fset, name, files[name], parser.ParseComments)
		if err != nil {
			return nil, []string{err.Error()}
		}
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if decl.Body != nil {
					namesIn(decl.Body, d.used)
				}
			case *ast.GenDecl:
				for _, spec := range decl.Specs {
					if vs, ok := spec.(*ast.ValueSpec); ok {
						d.add(decl, vs)
					}
				}
			}
		}
	}
	return d, nil
}

// add reads one constant or variable declaration.
func (d *decls) add(decl *ast.GenDecl, vs *ast.ValueSpec) {
	for k, id := range vs.Names {
		value := valueAt(vs, k)
		switch {
		case decl.Tok == token.CONST && after(id.Name, "Reason"):
			d.reasons = append(d.reasons, reasonConst{id.Name, value, doc(decl, vs)})
		case decl.Tok == token.CONST && after(id.Name, "rule"):
			d.indexes = append(d.indexes, id.Name)
		case decl.Tok == token.VAR && id.Name == "rules":
			d.hasRules = true
			namesIn(value, d.joined)
		case decl.Tok == token.VAR && isRuleTable(value):
			d.tables = append(d.tables, id.Name)
		}
		if value == nil {
			continue
		}
		// A function literal in a variable is code too.
		ast.Inspect(value, func(n ast.Node) bool {
			if fl, ok := n.(*ast.FuncLit); ok {
				namesIn(fl.Body, d.used)
				return false
			}
			return true
		})
	}
}

// after reports whether name is prefix and then a capital letter.
func after(name, prefix string) bool {
	return len(name) > len(prefix) && strings.HasPrefix(name, prefix) && name[len(prefix)] >= 'A' && name[len(prefix)] <= 'Z'
}

// reasonProblems checks one Reason constant: a rule writes it, it is named
// after its value, and its comment says which condition it goes with.
func reasonProblems(kind string, c reasonConst, written map[string]bool, types []string) []string {
	var probs []string
	text := strings.TrimPrefix(c.name, "Reason")
	if lit, ok := c.value.(*ast.BasicLit); ok && strings.Trim(lit.Value, `"`) != text {
		probs = append(probs, fmt.Sprintf("%s: reason %s is not named after its value %s", kind, c.name, lit.Value))
	}
	if !written[text] {
		probs = append(probs, fmt.Sprintf("%s: reason %s is declared but no rule writes it", kind, c.name))
	}
	if !strings.Contains(c.comment, "goes with") || !slices.ContainsFunc(append(types, "every type"), func(t string) bool { return strings.Contains(c.comment, t) }) {
		probs = append(probs, fmt.Sprintf("%s: reason %s: its comment does not say which condition it goes with", kind, c.name))
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

// CheckRuleSource fails t with each of SourceProblems' findings for the
// package in the current directory (a test runs there), for a kind whose
// package follows its three conventions.
func CheckRuleSource(t testing.TB, k RuleTable) {
	t.Helper()
	for _, p := range SourceProblems(k, PackageSources(t)) {
		t.Error(p)
	}
}

// PackageSources reads the Go files the package in the current directory
// builds from (a test runs there), tests left out, for SourceProblems.
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
