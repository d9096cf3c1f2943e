package buildinfo_test

import (
	"os"

	"github.com/condengine/condengine/cmd/internal/buildinfo"
)

// A release build of the engine, as `condengine version` prints it and
// as -o json does.
func Example() {
	info := buildinfo.Info{
		Version:      "v0.1.0",
		Revision:     "4e966b8c0d1f2a3b4c5d6e7f8091a2b3c4d5e6f7",
		RevisionTime: "2026-12-01T10:00:00Z",
		GoVersion:    "go1.26.8",
		Platform:     "linux/amd64",
	}
	_ = buildinfo.WriteText(os.Stdout, "condengine", info)
	_ = buildinfo.WriteJSON(os.Stdout, info)
	// Output:
	// condengine v0.1.0
	// revision: 4e966b8c0d1f2a3b4c5d6e7f8091a2b3c4d5e6f7, 2026-12-01T10:00:00Z
	// go: go1.26.8 linux/amd64
	// {
	//   "version": "v0.1.0",
	//   "revision": "4e966b8c0d1f2a3b4c5d6e7f8091a2b3c4d5e6f7",
	//   "modified": false,
	//   "revisionTime": "2026-12-01T10:00:00Z",
	//   "goVersion": "go1.26.8",
	//   "platform": "linux/amd64"
	// }
}
