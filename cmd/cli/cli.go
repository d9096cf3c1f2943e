package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/condengine/condengine/explain"
	"github.com/condengine/condengine/system"
)

// Exit codes: a failed check or an unreadable input is 1, a command line
// that cannot be understood is 2 (as the flag package does).
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// Command is the condengine command for a set of systems: eval, check,
// explain, vocab, conform, reference and version, and demo when it has
// demo data, each working on the systems it is given and none other.
// A Command without a Name says "condengine".
type Command struct {
	// Name is the program's name, as usage lines and errors say it:
	// "condengine", or the name of an author's own command.
	Name string
	// Systems are the systems the command evaluates, in the order its
	// outputs list their kinds.
	Systems []*system.System
	// Demo, when set, adds the demo command, which shows its scenario
	// files as eval's tables.
	Demo *Demo
	// Generate, when set, is the command that regenerates the docs the
	// -out flags write (`go generate ./cmd/condengine`); their first
	// note names it.
	Generate string
}

// Main runs the command name for systems on the process's arguments
// and exits with its code: the whole main of an author's command.
func Main(name string, systems ...*system.System) {
	(&Command{Name: name, Systems: systems}).Main()
}

// Main runs c on the process's arguments and streams, and exits with
// its code.
func (c *Command) Main() {
	os.Exit(c.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// env is what a subcommand may touch: the command, its arguments and the
// three streams. Subcommands never reach for os.Stdout or os.Exit, so
// tests call them directly.
type env struct {
	*Command
	stdin          io.Reader
	stdout, stderr io.Writer
}

type command struct {
	name    string
	summary string
	run     func(e env, args []string) int
}

func (c *Command) commands() []command {
	var out []command
	if c.Demo != nil {
		out = append(out, command{"demo", c.Demo.Summary, runDemo})
	}
	return append(out, []command{
		{"eval", "compute the status of every object in a scenario or a manifest stream", runEval},
		{"check", "run scenario files and report each expectation that does not hold", runCheck},
		{"vocab", "print the condition types and reasons of each kind", runVocab},
		{"explain", "say which rule and which facts decided each condition", runExplain},
		{"conform", "check another implementation against this engine over JSON lines", runConform},
		{"reference", "answer the conform protocol with this engine", runReference},
		{"version", "print the version, commit and Go release of this binary", runVersion},
	}...)
}

// Run executes the command line args (without the program name) and
// returns the process exit code.
func (c *Command) Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if c.Name == "" {
		named := *c
		named.Name = "condengine"
		c = &named
	}
	e := env{Command: c, stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		c.usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		c.usage(stdout)
		return exitOK
	}
	for _, cmd := range c.commands() {
		if cmd.name == args[0] {
			return cmd.run(e, args[1:])
		}
	}
	var names []string
	for _, cmd := range c.commands() {
		names = append(names, cmd.name)
	}
	if s := explain.Nearest(args[0], names); s != "" {
		fmt.Fprintf(stderr, "%s: unknown command %q; did you mean %q?\n\n", c.Name, args[0], s)
	} else {
		fmt.Fprintf(stderr, "%s: unknown command %q\n\n", c.Name, args[0])
	}
	c.usage(stderr)
	return exitUsage
}

func (c *Command) usage(w io.Writer) {
	fmt.Fprintf(w, "usage: %s <command> [flags] [args]\n", c.Name)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	for _, cmd := range c.commands() {
		fmt.Fprintf(w, "  %-9s %s\n", cmd.name, cmd.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "run '%s <command> -h' for the flags of one command\n", c.Name)
}

// errorf prints one line about what went wrong in the subcommand sub:
// "condengine eval: ...".
func (e env) errorf(sub, format string, a ...any) {
	fmt.Fprintf(e.stderr, "%s %s: %s\n", e.Name, sub, fmt.Sprintf(format, a...))
}

// newFlags builds a subcommand's flag set that reports to stderr and does
// not exit, so the caller turns a parse error into exitUsage.
func newFlags(e env, name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: %s %s\n", e.Name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args, allowing flags after positional arguments (as
// kubectl does), and returns the positional ones. ok is false with the exit
// code to return when parsing failed or help was asked for.
func parseFlags(fs *flag.FlagSet, args []string) (pos []string, code int, ok bool) {
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, exitOK, false
			}
			return nil, exitUsage, false
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, exitOK, true
		}
		if rest[0] == "--" {
			return append(pos, rest[1:]...), exitOK, true
		}
		// A lone "-" is an argument (stdin), not a flag.
		i := 0
		for i < len(rest) && (rest[i] == "-" || !strings.HasPrefix(rest[i], "-")) {
			i++
		}
		pos = append(pos, rest[:i]...)
		args = rest[i:]
		if len(args) == 0 {
			return pos, exitOK, true
		}
	}
}

// parseArgless is parseFlags for a command that takes no positional
// argument: a stray one is a usage error, with hint after its quote.
func parseArgless(e env, fs *flag.FlagSet, args []string, hint string) (code int, ok bool) {
	pos, code, ok := parseFlags(fs, args)
	if ok && len(pos) > 0 {
		return usageError(e, fs.Name(), "unexpected argument %q%s", pos[0], hint), false
	}
	return code, ok
}

// usageError prints a one-line complaint about the command line.
func usageError(e env, cmd, format string, a ...any) int {
	e.errorf(cmd, format, a...)
	fmt.Fprintf(e.stderr, "run '%s %s -h' for usage\n", e.Name, cmd)
	return exitUsage
}

// oneOf declares the flag name, whose value must be one of values; the
// first is the default. The usage line ends with the values, and the
// flag package refuses any other value as a usage error naming them, as
// it refuses an unknown flag.
func oneOf(fs *flag.FlagSet, name, usage string, values ...string) *string {
	c := &choice{value: values[0], values: values}
	fs.Var(c, name, usage+": "+orList(values))
	return &c.value
}

// choice is the value of a oneOf flag.
type choice struct {
	value  string
	values []string
}

func (c *choice) String() string {
	if c == nil {
		return ""
	}
	return c.value
}

func (c *choice) Set(v string) error {
	if !slices.Contains(c.values, v) {
		return fmt.Errorf("want %s", orList(c.values))
	}
	c.value = v
	return nil
}

// orList is "a, b or c".
func orList(values []string) string {
	if len(values) < 2 {
		return strings.Join(values, "")
	}
	return strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1]
}

// nowFlag declares -now, the evaluation instant of a manifest stream:
// an RFC 3339 time, or the current second when the flag is not given.
// The flag package refuses a value that does not parse as a usage error.
func nowFlag(fs *flag.FlagSet, usage string) *time.Time {
	i := &instant{t: time.Now().UTC().Truncate(time.Second)}
	fs.Var(i, "now", usage)
	return &i.t
}

// instant is the value of the -now flag; given is the text it was set
// from, "" while it keeps the current second.
type instant struct {
	t     time.Time
	given string
}

func (i *instant) String() string {
	if i == nil {
		return ""
	}
	return i.given
}

func (i *instant) Set(s string) error {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return errors.New("want an RFC 3339 time such as 2026-11-30T10:00:00Z")
	}
	i.t, i.given = t.UTC(), s
	return nil
}
