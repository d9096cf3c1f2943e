package crd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"

	"k8s.io/kube-openapi/pkg/validation/spec"

	"github.com/condengine/condengine/manifest"
)

// apiVersionV1 is the only apiVersion of a definition that is read; the
// v1beta1 form, gone from the API server since Kubernetes 1.22, keeps
// its schema elsewhere.
const apiVersionV1 = "apiextensions.k8s.io/v1"

// kindCRD is the kind of a CustomResourceDefinition.
const kindCRD = "CustomResourceDefinition"

// definition is the part of a CustomResourceDefinition the converter
// reads.
type definition struct {
	Spec struct {
		Group string `json:"group"`
		Names struct {
			Kind string `json:"kind"`
		} `json:"names"`
		Versions []struct {
			Name   string `json:"name"`
			Schema *struct {
				OpenAPIV3Schema map[string]any `json:"openAPIV3Schema"`
			} `json:"schema"`
		} `json:"versions"`
	} `json:"spec"`
}

// models are the schemas read so far, keyed "<group>.<version>.<Kind>"
// (the input of managedfields.NewTypeConverter), with where each was
// defined.
type models struct {
	schemas map[string]*spec.Schema
	where   map[string]string
}

// schemas reads the definitions of every manifest file in fsys (see
// TypeConverterFrom).
func schemas(fsys fs.FS) (map[string]*spec.Schema, error) {
	m := models{schemas: map[string]*spec.Schema{}, where: map[string]string{}}
	var errs []error
	walk := fs.WalkDir(fsys, ".", func(name string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() || !manifestFile(name) {
			return nil
		}
		if err := m.readFile(fsys, name); err != nil {
			errs = append(errs, err)
		}
		return nil
	})
	if walk != nil {
		return nil, fmt.Errorf("crd: %w", walk)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if len(m.schemas) == 0 {
		return nil, errors.New("crd: no CustomResourceDefinition in the FS (files ending in .yaml, .yml or .json are read)")
	}
	return m.schemas, nil
}

// manifestFile reports whether name is read as manifests.
func manifestFile(name string) bool {
	switch path.Ext(name) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// readFile reads every definition of one file.
func (m *models) readFile(fsys fs.FS, name string) error {
	f, err := fsys.Open(name)
	if err != nil {
		return fmt.Errorf("crd: %w", err)
	}
	defer f.Close()
	r := manifest.NewReader(f)
	r.File = name
	return manifest.Each(r, func(d *manifest.Document) error {
		if d.Header.Kind != kindCRD {
			return nil
		}
		return m.read(d)
	})
}

// read adds the schema of every version of the definition d.
func (m *models) read(d *manifest.Document) error {
	if d.Header.APIVersion != apiVersionV1 {
		return d.FailAt("apiVersion", fmt.Errorf("apiVersion: %q is not read; a definition is %s", d.Header.APIVersion, apiVersionV1))
	}
	var def definition
	if err := json.Unmarshal(d.JSON, &def); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return d.FailAt(te.Field, manifest.FieldError(err))
		}
		return d.Fail(manifest.FieldError(err))
	}
	s := def.Spec
	switch {
	case s.Group == "":
		return d.FailAt("spec", errors.New("spec.group: missing"))
	case s.Names.Kind == "":
		return d.FailAt("spec.names", errors.New("spec.names.kind: missing"))
	case len(s.Versions) == 0:
		return d.FailAt("spec", errors.New("spec.versions: no version"))
	}
	for i, v := range s.Versions {
		item := "spec.versions[" + strconv.Itoa(i) + "]"
		if v.Name == "" {
			return d.FailAt(item, fmt.Errorf("%s.name: missing", item))
		}
		at := item + ".schema.openAPIV3Schema"
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			return d.FailAt(item, fmt.Errorf("%s: missing", at))
		}
		sch, below, err := typed(v.Schema.OpenAPIV3Schema, s.Group, v.Name, s.Names.Kind)
		if err != nil {
			return d.FailAt(at+below, fmt.Errorf("%s%s: %w", at, below, err))
		}
		key := s.Group + "." + v.Name + "." + s.Names.Kind
		if first, dup := m.where[key]; dup {
			return d.FailAt(item+".name", fmt.Errorf("%s: %s %s/%s is also defined in %s", item, s.Names.Kind, s.Group, v.Name, first))
		}
		here := fmt.Sprintf("%s, document %d", d.File, d.Index)
		m.schemas[key], m.where[key] = sch, here
	}
	return nil
}

// typed is a version's openAPIV3Schema as the converter reads it: tagged
// with its group, version and kind, with metadata replaced by the
// ObjectMeta schema the API server puts in a definition's place, and with
// apiVersion and kind declared strings when the definition leaves them
// out, which a structural schema may. A problem comes with the path
// below the schema it is about.
func typed(s map[string]any, group, version, kind string) (sch *spec.Schema, below string, err error) {
	props, ok := s["properties"].(map[string]any)
	switch {
	case s["properties"] == nil:
		// A schema that keeps any field (x-kubernetes-preserve-unknown-
		// fields at the top) declares none; metadata is still typed.
		props = map[string]any{}
		s["properties"] = props
	case !ok:
		return nil, ".properties", errors.New("must be an object")
	}
	props["metadata"] = objectMeta()
	for _, f := range [...]string{"apiVersion", "kind"} {
		if _, ok := props[f]; !ok {
			props[f] = map[string]any{"type": "string"}
		}
	}
	s["x-kubernetes-group-version-kind"] = []any{map[string]any{"group": group, "version": version, "kind": kind}}
	js, err := json.Marshal(s)
	if err != nil {
		return nil, "", err
	}
	sch = &spec.Schema{}
	if err := json.Unmarshal(js, sch); err != nil {
		return nil, "", manifest.FieldError(err)
	}
	return sch, "", nil
}
