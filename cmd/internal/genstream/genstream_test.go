package genstream_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/cmd/internal/genstream"
)

// The stream decodes into the counts asked for, at about 530 bytes a
// Binding, so 100k Bindings make the 50 MB input of the measurement.
func TestWrite_DecodesToTheCountsAskedFor(t *testing.T) {
	var b bytes.Buffer
	if err := genstream.Write(&b, 1000, 10); err != nil {
		t.Fatal(err)
	}
	objs, err := binding.Decode(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(objs.Bindings) != 1000 || len(objs.Connections) != 10 || len(objs.Backends) != 10 {
		t.Fatalf("%d Bindings, %d connections, %d backends", len(objs.Bindings), len(objs.Connections), len(objs.Backends))
	}
	if per := (b.Len() - 10*2*250) / 1000; per < 450 || per > 600 {
		t.Errorf("%d bytes per Binding", per)
	}
}

func TestWrite_RejectsBadSizes(t *testing.T) {
	if err := genstream.Write(&bytes.Buffer{}, -1, 1); err == nil {
		t.Error("negative count accepted")
	}
	if err := genstream.Write(&bytes.Buffer{}, 1, 0); err == nil {
		t.Error("zero namespaces accepted")
	}
}

func ExampleWrite() {
	var b strings.Builder
	_ = genstream.Write(&b, 1, 1)
	fmt.Println(strings.Count(b.String(), "\nkind: "), "objects")
	// Output: 3 objects
}
