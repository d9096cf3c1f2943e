package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

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
