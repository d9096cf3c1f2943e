package buildinfo

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version, when set with -ldflags "-X ...buildinfo.version=vX.Y.Z", is
// the version a release build reports.
var version string

// Info is what a version verb prints. The JSON names are fixed.
type Info struct {
	// Version is the module version, such as v0.1.0, a pseudo-version,
	// or "(devel)".
	Version string `json:"version"`
	// Revision is the commit the binary was built from, "" when unknown;
	// Modified is true when the work tree had uncommitted changes.
	Revision string `json:"revision"`
	Modified bool   `json:"modified"`
	// RevisionTime is the commit's time (RFC 3339), "" when unknown.
	RevisionTime string `json:"revisionTime"`
	// GoVersion is the Go release that built the binary; Platform is the
	// GOOS/GOARCH it was built for.
	GoVersion string `json:"goVersion"`
	Platform  string `json:"platform"`
}

// Read returns the running binary's Info.
func Read() Info {
	bi, _ := debug.ReadBuildInfo()
	return fromBuildInfo(bi, version)
}

// fromBuildInfo derives Info from bi (nil when the binary carries none)
// and the linker-set version override ("" when not set).
func fromBuildInfo(bi *debug.BuildInfo, override string) Info {
	info := Info{
		Version:   "(devel)",
		GoVersion: runtime.Version(),
		Platform:  runtime.GOOS + "/" + runtime.GOARCH,
	}
	if bi != nil {
		if bi.Main.Version != "" {
			info.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				info.Revision = s.Value
			case "vcs.modified":
				info.Modified = s.Value == "true"
			case "vcs.time":
				info.RevisionTime = s.Value
			}
		}
	}
	if override != "" {
		info.Version = override
	}
	return info
}

// WriteText prints info as a few "name: value" lines; the first names
// the program.
func WriteText(w io.Writer, program string, info Info) error {
	revision := info.Revision
	switch {
	case revision == "":
		revision = "unknown"
	case info.Modified:
		revision += " (modified)"
	}
	if info.RevisionTime != "" {
		revision += ", " + info.RevisionTime
	}
	_, err := fmt.Fprintf(w, "%s %s\nrevision: %s\ngo: %s %s\n",
		program, info.Version, revision, info.GoVersion, info.Platform)
	return err
}

// WriteJSON prints info as one indented JSON object.
func WriteJSON(w io.Writer, info Info) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(info)
}
