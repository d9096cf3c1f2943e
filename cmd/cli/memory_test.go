package cli

import (
	"bytes"
	"io"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// Read from a pipe, the budget grows with the input: after the last byte
// it is what a file of that size gets at once, and restore puts the
// collector's settings back.
func TestLimitMemory_PipeBudgetGrowsToTheFileBudget(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	const size = 300 << 20 // above the floor, so the budget is the input's
	in, restore := limitMemory(io.LimitReader(zeros{}, size))
	if got := debug.SetMemoryLimit(-1); got != memoryBudget(0) {
		t.Errorf("budget before reading %d, want the floor %d", got, memoryBudget(0))
	}
	n, err := io.Copy(io.Discard, in)
	if err != nil || n != size {
		t.Fatalf("read %d, %v", n, err)
	}
	if got, want := debug.SetMemoryLimit(-1), memoryBudget(size); got != want {
		t.Errorf("budget after reading %d bytes: %d, want %d", size, got, want)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("restore left the limit at %d, want %d", got, before)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// A large single document (here a scenario file) raises the budget to
// perDocument times its size before it is converted, so converting it
// does not keep the collector running at a budget made for a stream of
// small documents.
func TestLimitMemory_ALargeDocumentRaisesTheBudget(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(before)
	var doc strings.Builder
	doc.WriteString("name: a large scenario\nsystem: finops\nnow: \"2026-11-30T10:00:00Z\"\nexpect: []\n")
	for doc.Len() < 4<<20 {
		doc.WriteString("# a comment line that only takes room in the one document of the file\n")
	}
	in, restore := limitMemory(strings.NewReader(doc.String()))
	defer restore()
	if _, err := seedCmd.evaluateInput("big.yaml", in, time.Now()); err != nil {
		t.Fatal(err)
	}
	if got, want := debug.SetMemoryLimit(-1), int64(doc.Len())*perDocument; got < want {
		t.Errorf("budget after a %d-byte document: %d, want at least %d", doc.Len(), got, want)
	}
}

// A kubectl JSON List is read item by item (manifest.Reader), so its
// text is never held whole beside its objects: each item is a small
// document, and the budget stays the one of a stream of small documents,
// not the one a converted document of the List's size would raise it to.
func TestLimitMemory_AJSONListReadItemByItemKeepsTheStreamBudget(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(before)
	_, list := floorInputs(t, 6000)
	if len(list)*perDocument <= int(memoryBudget(int64(len(list)))) {
		t.Fatalf("a %d-byte List is too small to tell the budgets apart", len(list))
	}
	in, restore := limitMemory(bytes.NewReader(list))
	defer restore()
	if _, err := seedCmd.evaluateInput("list.json", in, time.Now()); err != nil {
		t.Fatal(err)
	}
	if got, whole := debug.SetMemoryLimit(-1), int64(len(list))*perDocument; got >= whole {
		t.Errorf("budget after a %d-byte List read item by item: %d, as if it were one document (%d)", len(list), got, whole)
	}
}
