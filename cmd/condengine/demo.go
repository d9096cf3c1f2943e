package main

import (
	"embed"
	"fmt"
	"io"

	"github.com/condengine/condengine/scenario"
)

// The demo's worlds are scenario files, so the same data is checked by
// `condengine check` (see the tests) and shown by `condengine demo`.
//
//go:embed demo/*.yaml
var demoFiles embed.FS

// demoParts are the demo's sections, in the order they are printed.
var demoParts = []struct{ file, title string }{
	{"demo/binding.yaml", "Agent Kourier: the Binding status of the seed's `kubectl get akbinding -A`"},
	{"demo/finops.yaml", "FinOps: a PriceBook election, an Offering, and a Subscription family"},
}

func runDemo(e env, args []string) int {
	fs := newFlags(e, "demo", "demo")
	if code, ok := parseArgless(e, fs, args, ""); !ok {
		return code
	}
	if err := demo(e.stdout); err != nil {
		fmt.Fprintf(e.stderr, "condengine demo: %v\n", err)
		return exitFail
	}
	return exitOK
}

func demo(out io.Writer) error {
	for i, p := range demoParts {
		f, err := loadDemo(p.file)
		if err != nil {
			return err
		}
		w, err := evaluateScenario(f)
		if err != nil {
			return err
		}
		if i > 0 {
			fmt.Fprintln(out)
		}
		fmt.Fprintf(out, "### %s\n", p.title)
		fmt.Fprintf(out, "### %s, at %s\n\n", f.Name, f.Now.UTC().Format("2006-01-02T15:04:05Z"))
		if err := render(out, "table", w); err != nil {
			return err
		}
	}
	return nil
}

func loadDemo(name string) (*scenario.File, error) {
	data, err := demoFiles.ReadFile(name)
	if err != nil {
		return nil, err
	}
	f, err := scenario.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	f.Path = name
	return f, nil
}
