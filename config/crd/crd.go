package crd

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sync"

	"k8s.io/apimachinery/pkg/util/managedfields"
)

// FS holds the generated CustomResourceDefinitions of every kind the
// engine reads, one YAML file per kind as hack/generate.sh writes them,
// beside the kustomization that lists them. Hosts install them from here
// (envtest's CRDInstallOptions, a test's client.Create) instead of
// pointing at a path inside the module.
//
//go:embed *.yaml
var FS embed.FS

// TypeConverter is TypeConverterFrom(FS): the converter for the module's
// own kinds, built once and shared.
func TypeConverter() (managedfields.TypeConverter, error) {
	return typeConverter()
}

var typeConverter = sync.OnceValues(func() (managedfields.TypeConverter, error) {
	return TypeConverterFrom(FS)
})

// TypeConverterFrom returns the converter a server-side apply field
// manager needs for the kinds whose CustomResourceDefinitions fsys holds:
// the openAPIV3Schema of every version of every definition, with
// metadata typed as the API server types it. It is what makes
// status.conditions a list keyed by type, so that each condition has its
// own owner in managedFields; without it a field manager deduces a
// schema, treats the list as atomic and one writer's apply replaces
// every other writer's conditions.
//
// Every file of fsys whose name ends in .yaml, .yml or .json is read, in
// every directory, in lexical order, as a stream of manifests: YAML
// documents separated by ---, JSON, Lists expanded. A document of another
// kind (a kustomization, a Namespace) is passed over, and so is a file
// with another extension. Everything else that is wrong is an error: a
// file that is not YAML or JSON, a document that is not an object, a
// definition other than apiextensions.k8s.io/v1, a group, kind, version
// or schema missing or of the wrong shape, one kind and version defined
// twice, and an fsys that holds no definition at all. Each problem is a
// *manifest.DocumentError naming the file, the document, the line and
// the field (manifest.Errors lists them); all are reported at once.
//
// Build the converter once and share it: it is safe for concurrent use.
func TypeConverterFrom(fsys fs.FS) (managedfields.TypeConverter, error) {
	if fsys == nil {
		return nil, errors.New("crd: nil FS")
	}
	models, err := schemas(fsys)
	if err != nil {
		return nil, err
	}
	tc, err := managedfields.NewTypeConverter(models, false)
	if err != nil {
		return nil, fmt.Errorf("crd: building the type converter: %w", err)
	}
	return tc, nil
}
