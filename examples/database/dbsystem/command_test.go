package dbsystem_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/condengine/condengine/cmd/cli"
	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/examples/database/dbsystem"
	"github.com/condengine/condengine/system"
)

// naiveEnv, set in a test binary's environment, makes it the naive
// implementation with that planted bug ("none" for none), answering the
// conform protocol on stdin and stdout.
const naiveEnv = "DBSYSTEM_NAIVE"

func TestMain(m *testing.M) {
	if bug, ok := os.LookupEnv(naiveEnv); ok {
		if err := serveNaive(bug); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// serveNaive answers each request line with the naive implementation,
// after a capabilities line declaring its keys.
func serveNaive(bug string) error {
	if bug == "none" {
		bug = correct
	}
	caps, err := json.Marshal(conformance.Capabilities{Capabilities: []string{conformance.KeyWrite, conformance.KeyRemoveFinalizer}})
	if err != nil {
		return err
	}
	w := bufio.NewWriter(os.Stdout)
	fmt.Fprintf(w, "%s\n", caps)
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, conformance.MaxLineBytes)
	for in.Scan() {
		id, f, err := conformance.DecodeRequest(in.Bytes(), "database")
		if err != nil {
			return err
		}
		objs, err := naive(bug)(f)
		line, err := conformance.EncodeReply(*id, objs, err)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s\n", line)
		if err := w.Flush(); err != nil {
			return err
		}
	}
	return in.Err()
}

// dbctl is the Database system's own command, as cmd/dbctl builds it.
func dbctl(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	c := &cli.Command{Name: "dbctl", Systems: []*system.System{dbsystem.System()}}
	code = c.Run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// `dbctl conform` drives the naive implementation as a process: the
// correct one passes, the one with a planted bug fails with a
// counterexample. (The other bugs are TestConform_NaiveImplementation's.)
func TestCommand_Conform(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for bug, want := range map[string]int{"none": 0, releaseEarly: 1} {
		t.Run(bug, func(t *testing.T) {
			exec := fmt.Sprintf("%s='%s' '%s'", naiveEnv, bug, self)
			code, out, errOut := dbctl(t, "", "conform", "--system", "database", "--exec", exec, "--runs", "100", "--strict-order=false",
				"--out", t.TempDir()+"/cx.yaml")
			if code != want {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, want, out, errOut)
			}
			if want != 0 && !strings.Contains(out+errOut, "removeFinalizer: want false, got true") {
				t.Errorf("the counterexample does not show the early release:\n%s%s", out, errOut)
			}
			if want != 0 && (!strings.Contains(out, "#   dbctl conform --replay FILE") || strings.Contains(out, "condengine")) {
				t.Errorf("the counterexample does not say to replay it with dbctl alone:\n%s", out)
			}
		})
	}
}
