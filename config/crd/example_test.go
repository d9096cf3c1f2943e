package crd_test

import (
	"fmt"
	"io/fs"

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
