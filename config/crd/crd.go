package crd

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"sync"

	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/kube-openapi/pkg/validation/spec"
	"sigs.k8s.io/yaml"
)

// FS holds the generated CustomResourceDefinitions of every kind the
// engine reads, one YAML file per kind as hack/generate.sh writes them,
// beside the kustomization that lists them. Hosts install them from here
// (envtest's CRDInstallOptions, a test's client.Create) instead of
// pointing at a path inside the module.
//
//go:embed *.yaml
var FS embed.FS

// TypeConverter returns the converter a server-side apply field manager
// needs for our kinds: the openAPIV3Schema of every version of every CRD
// in FS, with ObjectMeta typed as the API server types it. It is what
// makes status.conditions a list keyed by type, so that each condition
// has its own owner in managedFields; without it a field manager deduces
// a schema, treats the list as atomic and one writer's apply replaces
// every other writer's conditions.
//
// The converter is built once and shared; it is safe for concurrent use.
func TypeConverter() (managedfields.TypeConverter, error) {
	return typeConverter()
}

var typeConverter = sync.OnceValues(func() (managedfields.TypeConverter, error) {
	models, err := schemas()
	if err != nil {
		return nil, err
	}
	tc, err := managedfields.NewTypeConverter(models, false)
	if err != nil {
		return nil, fmt.Errorf("crd: building the type converter: %w", err)
	}
	return tc, nil
})

// definition is the part of a CustomResourceDefinition the converter
// reads.
type definition struct {
	Kind string `json:"kind"`
	Spec struct {
		Group string `json:"group"`
		Names struct {
			Kind string `json:"kind"`
		} `json:"names"`
		Versions []struct {
			Name   string `json:"name"`
			Schema struct {
				OpenAPIV3Schema map[string]any `json:"openAPIV3Schema"`
			} `json:"schema"`
		} `json:"versions"`
	} `json:"spec"`
}

// schemas returns the openAPIV3Schema of every version of every CRD in
// FS, keyed "<group>.<version>.<Kind>" and tagged with its
// group-version-kind, with metadata replaced by the ObjectMeta schema
// the API server merges into a CRD's schema. It is the input of
// managedfields.NewTypeConverter.
func schemas() (map[string]*spec.Schema, error) {
	files, err := fs.Glob(FS, "*.yaml")
	if err != nil {
		return nil, fmt.Errorf("crd: %w", err)
	}
	sort.Strings(files)
	models := map[string]*spec.Schema{}
	for _, name := range files {
		raw, err := FS.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("crd: %s: %w", name, err)
		}
		var d definition
		if err := yaml.Unmarshal(raw, &d); err != nil {
			return nil, fmt.Errorf("crd: %s: %w", name, err)
		}
		if d.Kind != "CustomResourceDefinition" {
			continue
		}
		for i, v := range d.Spec.Versions {
			s := v.Schema.OpenAPIV3Schema
			if s == nil {
				return nil, fmt.Errorf("crd: %s: spec.versions[%d].schema.openAPIV3Schema is missing", path.Base(name), i)
			}
			props, _ := s["properties"].(map[string]any)
			if props == nil {
				return nil, fmt.Errorf("crd: %s: spec.versions[%d].schema.openAPIV3Schema.properties is missing", path.Base(name), i)
			}
			props["metadata"] = objectMeta()
			s["x-kubernetes-group-version-kind"] = []any{map[string]any{
				"group": d.Spec.Group, "version": v.Name, "kind": d.Spec.Names.Kind,
			}}
			js, err := json.Marshal(s)
			if err != nil {
				return nil, fmt.Errorf("crd: %s: %w", name, err)
			}
			var sch spec.Schema
			if err := json.Unmarshal(js, &sch); err != nil {
				return nil, fmt.Errorf("crd: %s: spec.versions[%d].schema.openAPIV3Schema: %w", name, i, err)
			}
			models[d.Spec.Group+"."+v.Name+"."+d.Spec.Names.Kind] = &sch
		}
	}
	if len(models) == 0 {
		return nil, fmt.Errorf("crd: no CustomResourceDefinition in FS")
	}
	return models, nil
}
