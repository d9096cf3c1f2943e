package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/condengine/condengine/explain"
)

// Exit codes: a failed check or an unreadable input is 1, a command line
// that cannot be understood is 2 (as the flag package does).
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// env is what a subcommand may touch: its arguments and the three streams.
// Subcommands never reach for os.Stdout or os.Exit, so tests call them
// directly.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

type command struct {
	name    string
	summary string
	run     func(e env, args []string) int
}

func commands() []command {
	return []command{
		{"demo", "show the seed's kubectl view and a FinOps family, computed from built-in data", runDemo},
		{"eval", "compute the status of every object in a scenario or a manifest stream", runEval},
		{"check", "run scenario files and report each expectation that does not hold", runCheck},
		{"vocab", "print the condition types and reasons of each kind", runVocab},
		{"explain", "say which rule and which facts decided each condition", runExplain},
		{"conform", "check another implementation against this engine over JSON lines", runConform},
		{"reference", "answer the conform protocol with this engine", runReference},
		{"version", "print the version, commit and Go release of this binary", runVersion},
	}
}

// Run executes the command line args (without the program name) and
// returns the process exit code.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := env{stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return exitOK
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(e, args[1:])
		}
	}
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	if s := explain.Nearest(args[0], names); s != "" {
		fmt.Fprintf(stderr, "condengine: unknown command %q; did you mean %q?\n\n", args[0], s)
	} else {
		fmt.Fprintf(stderr, "condengine: unknown command %q\n\n", args[0])
	}
	usage(stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: condengine <command> [flags] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "run 'condengine <command> -h' for the flags of one command")
}

// newFlags builds a subcommand's flag set that reports to stderr and does
// not exit, so the caller turns a parse error into exitUsage.
func newFlags(e env, name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: condengine %s\n", synopsis)
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
	fmt.Fprintf(e.stderr, "condengine %s: %s\n", cmd, fmt.Sprintf(format, a...))
	fmt.Fprintf(e.stderr, "run 'condengine %s -h' for usage\n", cmd)
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
