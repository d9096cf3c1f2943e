package manifest_test

import (
	"fmt"
	"strings"

	"github.com/condengine/condengine/manifest"
)

func ExampleSplit() {
	docs, err := manifest.Split([]byte(`
apiVersion: agentkourier.dev/v1alpha1
kind: Binding
metadata: {namespace: team-a, name: late}
---
apiVersion: v1
kind: List
items: []
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range docs {
		h, _ := manifest.ReadHeader(d)
		fmt.Println(h, h.IsList())
	}
	// Output:
	// Binding team-a/late false
	// List  true
}

// A Reader names the file; Document.Unmarshal decodes as strictly as
// kubectl apply --validate=strict and says where the problem is.
func ExampleReader() {
	r := manifest.NewReader(strings.NewReader(`apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
data:
  mode: fast
---
apiVersion: v1
kind: ConfigMap
metadata: {name: other}
dta:
  mode: slow
`))
	r.File = "config.yaml"
	for {
		d, err := r.Next()
		if err != nil {
			break
		}
		var cm struct {
			manifest.Header
			Data map[string]string `json:"data"`
		}
		if err := d.Unmarshal(&cm); err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(cm.Metadata.Name, cm.Data["mode"])
	}
	// Output:
	// settings fast
	// config.yaml: document 2, line 10: dta: unknown field
}
