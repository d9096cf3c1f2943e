package buildinfo

import (
	"bytes"
	"encoding/json"
	"runtime"
	"runtime/debug"
	"slices"
	"testing"
)

func settings(kv ...string) []debug.BuildSetting {
	var out []debug.BuildSetting
	for i := 0; i < len(kv); i += 2 {
		out = append(out, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
	}
	return out
}

func TestFromBuildInfo(t *testing.T) {
	platform := runtime.GOOS + "/" + runtime.GOARCH
	for _, tc := range []struct {
		name     string
		bi       *debug.BuildInfo
		override string
		want     Info
	}{
		{"no build information", nil, "",
			Info{Version: "(devel)", GoVersion: runtime.Version(), Platform: platform}},
		{"a module download", &debug.BuildInfo{Main: debug.Module{Version: "v0.1.0"}}, "",
			Info{Version: "v0.1.0", GoVersion: runtime.Version(), Platform: platform}},
		{"a checkout with changes",
			&debug.BuildInfo{
				Main:     debug.Module{Version: "v0.0.0-20261201100000-4e966b8c0d1f+dirty"},
				Settings: settings("vcs", "git", "vcs.revision", "4e966b8c0d1f", "vcs.time", "2026-12-01T10:00:00Z", "vcs.modified", "true"),
			}, "",
			Info{Version: "v0.0.0-20261201100000-4e966b8c0d1f+dirty", Revision: "4e966b8c0d1f", Modified: true,
				RevisionTime: "2026-12-01T10:00:00Z", GoVersion: runtime.Version(), Platform: platform}},
		{"the linker's version wins",
			&debug.BuildInfo{
				Main:     debug.Module{Version: "v0.1.1-0.20261201100000-4e966b8c0d1f"},
				Settings: settings("vcs.revision", "4e966b8c0d1f", "vcs.modified", "false"),
			}, "v0.1.0",
			Info{Version: "v0.1.0", Revision: "4e966b8c0d1f", GoVersion: runtime.Version(), Platform: platform}},
		{"an empty main version reads as devel", &debug.BuildInfo{}, "",
			Info{Version: "(devel)", GoVersion: runtime.Version(), Platform: platform}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fromBuildInfo(tc.bi, tc.override); got != tc.want {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// A script reads the same keys whatever the build recorded, an unknown
// revision included.
func TestWriteJSON_FixedKeys(t *testing.T) {
	want := []string{"goVersion", "modified", "platform", "revision", "revisionTime", "version"}
	for _, info := range []Info{{}, fromBuildInfo(nil, ""), Read()} {
		var buf bytes.Buffer
		if err := WriteJSON(&buf, info); err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
			t.Fatalf("%v:\n%s", err, buf.String())
		}
		var keys []string
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, want) {
			t.Errorf("keys %v, want %v", keys, want)
		}
	}
}

func TestWriteText(t *testing.T) {
	goLine := "go: " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
	for _, tc := range []struct {
		name string
		info Info
		want string
	}{
		{"unknown revision", fromBuildInfo(nil, ""), "condengine (devel)\nrevision: unknown\n" + goLine},
		{"modified work tree",
			fromBuildInfo(&debug.BuildInfo{
				Main:     debug.Module{Version: "v0.0.0-20261201100000-4e966b8c0d1f+dirty"},
				Settings: settings("vcs.revision", "4e966b8c0d1f", "vcs.time", "2026-12-01T10:00:00Z", "vcs.modified", "true"),
			}, ""),
			"condengine v0.0.0-20261201100000-4e966b8c0d1f+dirty\nrevision: 4e966b8c0d1f (modified), 2026-12-01T10:00:00Z\n" + goLine},
		{"clean, no time",
			fromBuildInfo(&debug.BuildInfo{Settings: settings("vcs.revision", "4e966b8c0d1f", "vcs.modified", "false")}, "v0.1.0"),
			"condengine v0.1.0\nrevision: 4e966b8c0d1f\n" + goLine},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteText(&buf, "condengine", tc.info); err != nil {
				t.Fatal(err)
			}
			if buf.String() != tc.want {
				t.Errorf("got %q, want %q", buf.String(), tc.want)
			}
		})
	}
}

// A test binary carries build information; Read reports the Go that
// built it.
func TestRead(t *testing.T) {
	if got := Read(); got.GoVersion != runtime.Version() || got.Version == "" {
		t.Errorf("Read() = %+v", got)
	}
}
