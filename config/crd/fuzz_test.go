package crd_test

import (
	"testing"
	"testing/fstest"

	"github.com/condengine/condengine/config/crd"
)

// FuzzTypeConverterFrom feeds one file of any bytes to the reader of
// definitions: it answers a converter or an error, never a panic.
func FuzzTypeConverterFrom(f *testing.F) {
	bindings, err := crd.FS.ReadFile("agentkourier.dev_bindings.yaml")
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{databaseCRD, string(bindings), "kind: Kustomization\n", "- a\n", "x: [\n", "{}",
		`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","spec":{"group":"g","names":{"kind":"K"},"versions":[{"name":"v1","schema":{"openAPIV3Schema":{"type":"object"}}}]}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tc, err := crd.TypeConverterFrom(fstest.MapFS{"crd.yaml": {Data: data}})
		if (tc == nil) == (err == nil) {
			t.Fatalf("converter %v with error %v", tc, err)
		}
	})
}
