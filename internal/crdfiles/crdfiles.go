// Package crdfiles picks the CustomResourceDefinitions of one API group
// out of config/crd, for the seed systems' values.
package crdfiles

import (
	"io/fs"
	"testing/fstest"

	"github.com/condengine/condengine/config/crd"
)

// Group returns the files of crd.FS that hold the CRDs of group, as
// hack/generate.sh names them (GROUP_PLURAL.yaml), at the top of a file
// system of their own.
func Group(group string) fs.FS {
	out := fstest.MapFS{}
	names, _ := fs.Glob(crd.FS, group+"_*.yaml") // the pattern is well-formed
	for _, n := range names {
		if data, err := fs.ReadFile(crd.FS, n); err == nil {
			out[n] = &fstest.MapFile{Data: data}
		}
	}
	return out
}
