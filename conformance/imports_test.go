package conformance_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Only test helpers (*test packages), conformance and the commands may
// link package testing: a host that imports an engine package, the
// scenario format or a system value's type must not get it. The check
// follows imports transitively.
func TestOnlyTestPackagesLinkTesting(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list over the module")
	}
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Deps " "}}`, "github.com/condengine/condengine/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const module = "github.com/condengine/condengine/"
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], module)
		if allowedToLinkTesting(pkg) {
			continue
		}
		checked++
		if slices.Contains(fields[1:], "testing") {
			t.Errorf("%s links package testing", pkg)
		}
	}
	if checked < 10 {
		t.Fatalf("checked only %d packages", checked)
	}
}

func allowedToLinkTesting(pkg string) bool {
	first, _, _ := strings.Cut(pkg, "/")
	last := pkg[strings.LastIndex(pkg, "/")+1:]
	return strings.HasSuffix(last, "test") || first == "conformance" || first == "cmd"
}

// Each API type and constant has one home, its api/…/v1alpha1 package:
// no other package of the module re-declares one as an alias or as a
// constant that only repeats it, so a reader finds a kind's fields in
// one place and a caller spells them one way.
func TestAPINamesHaveOneHome(t *testing.T) {
	const module = "github.com/condengine/condengine/"
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel == "api" || strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if rel != "." {
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir // another module
				}
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		files++
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		api := map[string]bool{} // local names of imported api packages
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if !strings.HasPrefix(p, module+"api/") {
				continue
			}
			name := p[strings.LastIndex(p, "/")+1:]
			if im.Name != nil {
				name = im.Name.Name
			}
			api[name] = true
		}
		repeats := func(e ast.Expr) bool {
			sel, ok := e.(*ast.SelectorExpr)
			if !ok {
				return false
			}
			x, ok := sel.X.(*ast.Ident)
			return ok && api[x.Name]
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gd.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if s.Assign.IsValid() && repeats(s.Type) {
						t.Errorf("%s: type %s re-declares an API type; use it from its api package", rel, s.Name.Name)
					}
				case *ast.ValueSpec:
					if gd.Tok != token.CONST || s.Type != nil {
						continue
					}
					for i, v := range s.Values {
						if repeats(v) {
							t.Errorf("%s: const %s repeats an API constant; use it from its api package", rel, s.Names[i].Name)
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read only %d files", files)
	}
}
