package system

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"

	"github.com/condengine/condengine/manifest"
)

// crd is the part of a CustomResourceDefinition Validate compares with
// a Kind.
type crd struct {
	file string
	Spec struct {
		Group string `json:"group"`
		Names struct {
			Kind       string   `json:"kind"`
			Plural     string   `json:"plural"`
			ShortNames []string `json:"shortNames"`
		} `json:"names"`
		Scope    string       `json:"scope"`
		Versions []crdVersion `json:"versions"`
	} `json:"spec"`
}

type crdVersion struct {
	Name    string          `json:"name"`
	Served  bool            `json:"served"`
	Columns []PrinterColumn `json:"additionalPrinterColumns"`
}

// PrinterColumn is one of the additionalPrinterColumns a CRD declares
// for a version: a column `kubectl get` prints after the namespace and
// the name.
type PrinterColumn struct {
	// Name is the column's header; kubectl prints it in upper case.
	Name string `json:"name"`
	// Type is the OpenAPI type of the cell: string, boolean, integer,
	// number or date (a date prints as an age).
	Type string `json:"type"`
	// JSONPath selects the cell's value in the object.
	JSONPath string `json:"jsonPath"`
	// Priority 0 columns are in the default view; others only in -o wide.
	Priority int32 `json:"priority,omitempty"`
}

// PrinterColumns returns the printer columns the CRD of k in s.CRDs
// declares for k's version, in their order; nil when s has no CRD for k
// or the CRD declares none.
func (s *System) PrinterColumns(k Kind) ([]PrinterColumn, error) {
	if s.CRDs == nil {
		return nil, nil
	}
	defs, err := readCRDs(s.CRDs)
	if err != nil {
		return nil, err
	}
	for _, d := range defs {
		if d.Spec.Group != k.Group || d.Spec.Names.Kind != k.Kind {
			continue
		}
		for _, v := range d.Spec.Versions {
			if v.Name == k.Version {
				return v.Columns, nil
			}
		}
	}
	return nil, nil
}

// checkCRDs holds each kind of s to its CustomResourceDefinition in
// s.CRDs: every kind the system writes to (one with a vocabulary, a
// computed status or a finalizer) must have one, and every other kind
// that has one must agree with it.
func checkCRDs(s *System) []error {
	defs, err := readCRDs(s.CRDs)
	if err != nil {
		return []error{fmt.Errorf("CRDs: %w", err)}
	}
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	for _, k := range s.Kinds {
		i := slices.IndexFunc(defs, func(d crd) bool { return d.Spec.Group == k.Group && d.Spec.Names.Kind == k.Kind })
		if i < 0 {
			// A kind the system only reads may be built in (a Secret, a
			// ConfigMap); one it writes to is its own and has its CRD.
			if k.Vocabulary != nil || k.Status || k.Finalizer != "" {
				fail("kind %s has no CustomResourceDefinition in CRDs", kindID(k))
			}
			continue
		}
		d := defs[i]
		at := fmt.Sprintf("kind %s (CRDs: %s)", kindID(k), d.file)
		if d.Spec.Names.Plural != k.Plural {
			fail("%s: the plural is %q, the CRD's %q", at, k.Plural, d.Spec.Names.Plural)
		}
		if !sameSet(d.Spec.Names.ShortNames, k.ShortNames) {
			fail("%s: the short names are %q, the CRD's %q", at, k.ShortNames, d.Spec.Names.ShortNames)
		}
		if namespaced := d.Spec.Scope != "Cluster"; namespaced != k.Namespaced {
			fail("%s: Namespaced is %t, the CRD's scope is %s", at, k.Namespaced, d.Spec.Scope)
		}
		if !slices.ContainsFunc(d.Spec.Versions, func(v crdVersion) bool { return v.Name == k.Version && v.Served }) {
			fail("%s: the CRD serves no version %s", at, k.Version)
		}
	}
	return errs
}

// readCRDs reads every CustomResourceDefinition of the YAML and JSON
// files of fsys; documents of other kinds are skipped.
func readCRDs(fsys fs.FS) ([]crd, error) {
	var out []crd
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !(strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".json")) {
			return nil
		}
		f, err := fsys.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		r := manifest.NewReader(f)
		r.File = p
		for {
			doc, err := r.Next()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
			if h, err := manifest.ReadHeader(doc.JSON); err != nil || h.Kind != "CustomResourceDefinition" {
				continue
			}
			c := crd{file: p}
			if err := json.Unmarshal(doc.JSON, &c); err != nil {
				return doc.Fail(manifest.FieldError(err))
			}
			out = append(out, c)
		}
	})
	return out, err
}

// sameSet reports whether a and b hold the same strings, in any order.
func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
