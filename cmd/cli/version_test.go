package cli

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestVersion_InHelp(t *testing.T) {
	_, out, _ := run(t, "", "help")
	if !strings.Contains(out, "\n  version ") {
		t.Errorf("help does not list version:\n%s", out)
	}
}

// A misspelt version is answered with it, and adding it took no other
// verb's suggestion.
func TestVersion_UnknownCommandSuggestions(t *testing.T) {
	for typed, want := range map[string]string{"verison": "version", "versoin": "version", "vocb": "vocab", "evla": "eval"} {
		code, _, errs := run(t, "", typed)
		if code != exitUsage || !strings.Contains(errs, `did you mean "`+want+`"?`) {
			t.Errorf("%s: code %d, stderr %q", typed, code, errs)
		}
	}
}

func TestVersion_Text(t *testing.T) {
	code, out, errs := run(t, "", "version")
	if code != exitOK || errs != "" {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
	lines := strings.Split(out, "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "condengine ") || !strings.HasPrefix(lines[1], "revision: ") ||
		lines[2] != "go: "+runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH || lines[3] != "" {
		t.Errorf("stdout:\n%s", out)
	}
}

// -o json prints one object with the same keys whatever the build
// recorded.
func TestVersion_JSON(t *testing.T) {
	code, out, errs := run(t, "", "version", "-o", "json")
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

// The linker flag the release configuration sets (.goreleaser.yaml)
// names the version the binary reports.
func TestBinary_VersionFromLinker(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := filepath.Join(t.TempDir(), "condengine")
	const flag = "-X github.com/condengine/condengine/cmd/internal/buildinfo.version=v9.8.7"
	if out, err := exec.Command("go", "build", "-ldflags", flag, "-o", bin, "../condengine").CombinedOutput(); err != nil {
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
