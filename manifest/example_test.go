package manifest_test

import (
	"fmt"

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
