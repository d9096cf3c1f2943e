package crd_test

import (
	"fmt"
	"io/fs"
	"testing/fstest"

	"github.com/condengine/condengine/config/crd"
)

// Example lists the embedded definitions and builds the converter.
func Example() {
	files, _ := fs.Glob(crd.FS, "agentkourier.dev_*.yaml")
	for _, f := range files {
		fmt.Println(f)
	}
	if _, err := crd.TypeConverter(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// agentkourier.dev_agentbackends.yaml
	// agentkourier.dev_bindings.yaml
	// agentkourier.dev_chatconnections.yaml
}

// ExampleTypeConverterFrom builds the converter for a kind the module
// does not ship, from a directory of manifests as a kubebuilder project
// keeps them; the kustomization beside the definition is passed over. A
// definition with a problem is refused with its file, line and field.
func ExampleTypeConverterFrom() {
	bases := fstest.MapFS{
		"kustomization.yaml":         {Data: []byte("kind: Kustomization\nresources: [example.com_databases.yaml]\n")},
		"example.com_databases.yaml": {Data: []byte(databaseCRD)},
	}
	if _, err := crd.TypeConverterFrom(bases); err != nil {
		fmt.Println(err)
	}

	bases["example.com_caches.yaml"] = &fstest.MapFile{Data: []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: caches.example.com
spec:
  group: example.com
  names:
    kind: Cache
  versions:
  - name: v1
`)}
	_, err := crd.TypeConverterFrom(bases)
	fmt.Println(err)
	// Output:
	// example.com_caches.yaml: document 1 (CustomResourceDefinition caches.example.com), line 10: spec.versions[0].schema.openAPIV3Schema: missing
}
