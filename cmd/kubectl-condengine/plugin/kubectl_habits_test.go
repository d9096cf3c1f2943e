package plugin

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// Every spelling a kubectl user types names the same object, the same
// spellings condengine explain takes.
func TestExplain_KindsAndNamesAsKubectl(t *testing.T) {
	_, newReader := fakeCluster(objects(t, "conflict-across-namespaces.yaml")...)
	_, want, _ := runExplain(t, newReader, "binding", "second", "-n", "team-a")
	if !strings.HasPrefix(want, "Binding team-a/second\n") {
		t.Fatalf("reference output:\n%s", want)
	}
	for _, args := range [][]string{
		{"Binding", "second", "-n", "team-a"},
		{"bindings", "second", "--namespace", "team-a"},
		{"akbinding/second", "-n", "team-a"},
		{"AKBINDINGS", "second", "-n", "team-a"},
		{"bindings.agentkourier.dev", "second", "-n", "team-a"},
		{"binding", "team-a/second"},
		{"binding", "team-a/second", "-n", "team-a"},
	} {
		code, out, errs := runExplain(t, newReader, args...)
		if code != exitOK || out != want {
			t.Errorf("explain %v: code %d, stderr %q, stdout:\n%s", args, code, errs, out)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bindng", "second", "-n", "team-a"}, `unknown kind "bindng" (did you mean "binding"?)`},
		{[]string{"binding", "team-a/second", "-n", "team-b"}, `"team-a/second" names namespace team-a, -n says team-b`},
		{[]string{"binding", "/second"}, `name the object as NAME or NAMESPACE/NAME, not "/second"`},
	} {
		code, _, errs := runExplain(t, newReader, tc.args...)
		if code != exitError || !strings.Contains(errs, tc.want) {
			t.Errorf("explain %v: code %d, stderr %q, want %q", tc.args, code, errs, tc.want)
		}
	}
}

// Help and errors name the command as the user types it.
func TestHelpNamesKubectlCondengine(t *testing.T) {
	_, newReader := fakeCluster()
	for _, args := range [][]string{{"--help"}, {"explain", "--help"}, {"audit", "--help"}, {"version", "--help"}} {
		var out, errb bytes.Buffer
		code := run(args, &out, &errb, newReader, func() time.Time { return auditNow })
		if code != exitOK || !strings.Contains(out.String(), "kubectl condengine") || strings.Contains(out.String(), "kubectl-condengine") {
			t.Errorf("%v: code %d, stdout:\n%s", args, code, out.String())
		}
	}
	var out, errb bytes.Buffer
	code := run([]string{"audti"}, &out, &errb, newReader, func() time.Time { return auditNow })
	if code != exitError || !strings.Contains(errb.String(), `unknown command "audti" for "kubectl condengine"`) || !strings.Contains(errb.String(), "Did you mean this?\n\taudit") {
		t.Errorf("code %d, stderr %q", code, errb.String())
	}
}
