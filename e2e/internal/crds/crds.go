package crds

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// Dir finds config/crd by walking up from the working directory, which for
// `go test` is the test's package directory somewhere under e2e/.
func Dir() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		candidate := filepath.Join(d, "config", "crd")
		if fi, err := os.Stat(candidate); err == nil && fi.IsDir() {
			return candidate, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no config/crd above %s", wd)
		}
	}
}

// Load reads every CustomResourceDefinition in the YAML files of dir (the
// kustomization file aside), sorted by name. Unknown fields are an error, so
// a misspelt key in a manifest fails here rather than being dropped by the
// API server.
func Load(dir string) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	var out []*apiextensionsv1.CustomResourceDefinition
	for _, f := range files {
		if filepath.Base(f) == "kustomization.yaml" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		docs, err := split(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		for i, doc := range docs {
			crd := &apiextensionsv1.CustomResourceDefinition{}
			if err := yaml.UnmarshalStrict(doc, crd); err != nil {
				return nil, fmt.Errorf("%s: document %d: %w", f, i, err)
			}
			if crd.Kind != "CustomResourceDefinition" || crd.APIVersion != "apiextensions.k8s.io/v1" {
				return nil, fmt.Errorf("%s: document %d: %s %s is not an apiextensions.k8s.io/v1 CustomResourceDefinition", f, i, crd.APIVersion, crd.Kind)
			}
			out = append(out, crd)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no CustomResourceDefinition in " + dir)
	}
	slices.SortFunc(out, func(a, b *apiextensionsv1.CustomResourceDefinition) int {
		return strings.Compare(a.Name, b.Name)
	})
	return out, nil
}

// split cuts a multi-document YAML stream into its non-empty documents.
func split(data []byte) ([][]byte, error) {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var docs [][]byte
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(stripComments(doc))) > 0 {
			docs = append(docs, doc)
		}
	}
}

// stripComments drops comment-only lines, so a header comment is not a document.
func stripComments(doc []byte) []byte {
	var b bytes.Buffer
	for line := range bytes.Lines(doc) {
		if !bytes.HasPrefix(bytes.TrimSpace(line), []byte("#")) {
			b.Write(line)
		}
	}
	return b.Bytes()
}
