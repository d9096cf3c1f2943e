package cli

import (
	"fmt"
	"io"
	"io/fs"

	"github.com/condengine/condengine/scenario"
)

// Demo is what the demo command shows: scenario files, each evaluated
// and printed as eval prints it, under a title. Being scenario files,
// the same data can be verified by check.
type Demo struct {
	// Summary is the demo command's line in the command list.
	Summary string
	// Files holds the scenario files.
	Files fs.FS
	// Sections are the files shown, in order, each with its title.
	Sections []DemoSection
}

// DemoSection is one scenario file of Demo.Files and the title shown
// above it.
type DemoSection struct {
	File, Title string
}

func runDemo(e env, args []string) int {
	fs := newFlags(e, "demo", "demo")
	if code, ok := parseArgless(e, fs, args, ""); !ok {
		return code
	}
	if err := e.demo(e.stdout); err != nil {
		e.errorf("demo", "%v", err)
		return exitFail
	}
	return exitOK
}

func (c *Command) demo(out io.Writer) error {
	for i, p := range c.Demo.Sections {
		f, err := c.Demo.load(p.File)
		if err != nil {
			return err
		}
		w, err := c.evaluateScenario(f)
		if err != nil {
			return err
		}
		if i > 0 {
			fmt.Fprintln(out)
		}
		fmt.Fprintf(out, "### %s\n", p.Title)
		fmt.Fprintf(out, "### %s, at %s\n\n", f.Name, f.Now.UTC().Format("2006-01-02T15:04:05Z"))
		if err := render(out, "table", w); err != nil {
			return err
		}
	}
	return nil
}

func (d *Demo) load(name string) (*scenario.File, error) {
	data, err := fs.ReadFile(d.Files, name)
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
