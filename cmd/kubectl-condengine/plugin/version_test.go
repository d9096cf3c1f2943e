package plugin

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

func runPlugin(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	_, newReader := fakeCluster()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb, newReader, func() time.Time { return auditNow })
	return code, out.String(), errb.String()
}

func TestVersion_InHelp(t *testing.T) {
	code, out, _ := runPlugin(t, "--help")
	if code != exitOK || !strings.Contains(out, "\n  version ") {
		t.Errorf("code %d, help does not list version:\n%s", code, out)
	}
}

func TestVersion_DidYouMean(t *testing.T) {
	code, _, errs := runPlugin(t, "verison")
	if code != exitError || !strings.Contains(errs, "Did you mean this?\n\tversion") {
		t.Errorf("code %d, stderr %q", code, errs)
	}
}

// It needs no cluster: a kubeconfig that does not exist is not read.
func TestVersion_Text(t *testing.T) {
	code, out, errs := runPlugin(t, "version", "--kubeconfig", filepath.Join(t.TempDir(), "none"))
	if code != exitOK || errs != "" {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
	lines := strings.Split(out, "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "kubectl-condengine ") || !strings.HasPrefix(lines[1], "revision: ") ||
		lines[2] != "go: "+runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH {
		t.Errorf("stdout:\n%s", out)
	}
}

// -o json prints the object `condengine version -o json` prints, with
// the same keys whatever the build recorded.
func TestVersion_JSON(t *testing.T) {
	code, out, errs := runPlugin(t, "version", "-o", "json")
	if code != exitOK || errs != "" {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if want := []string{"goVersion", "modified", "platform", "revision", "revisionTime", "version"}; !slices.Equal(keys, want) {
		t.Errorf("keys %v, want %v", keys, want)
	}
	if m["goVersion"] != runtime.Version() || m["version"] == "" {
		t.Errorf("stdout:\n%s", out)
	}
}

func TestVersion_BadArguments(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"version", "-o", "yaml"}, `--output "yaml" is not text or json`},
		{[]string{"version", "extra"}, `unknown command "extra" for "kubectl condengine version"`},
	} {
		code, out, errs := runPlugin(t, tc.args...)
		if code != exitError || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: code %d, stdout %q, stderr %q, want %q", tc.args, code, out, errs, tc.want)
		}
	}
}

// The linker flag the release configuration sets (.goreleaser.yaml)
// names the version the plugin reports.
func TestBinary_VersionFromLinker(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the plugin")
	}
	bin := filepath.Join(t.TempDir(), "kubectl-condengine")
	const flag = "-X github.com/condengine/condengine/cmd/internal/buildinfo.version=v9.8.7"
	if out, err := exec.Command("go", "build", "-ldflags", flag, "-o", bin, "..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version", "-o", "json").Output()
	if err != nil {
		t.Fatal(err)
	}
	var info struct{ Version string }
	if err := json.Unmarshal(out, &info); err != nil || info.Version != "v9.8.7" {
		t.Errorf("version %q (%v):\n%s", info.Version, err, out)
	}
}
