package cli

import (
	"bytes"
	"io"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestInterner_SharesEqualConditionLists(t *testing.T) {
	at := metav1.NewTime(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	list := func() []metav1.Condition {
		l := make([]metav1.Condition, 2, 4)
		l[0] = metav1.Condition{Type: "Accepted", Status: "True", Reason: "OK", ObservedGeneration: 1, LastTransitionTime: at}
		l[1] = metav1.Condition{Type: "Ready", Status: "Unknown", Reason: "Pending", Message: "m", ObservedGeneration: 1}
		return l
	}
	in := newInterner()
	first := in.conditions(list())
	if cap(first) != len(first) {
		t.Fatalf("kept list has room to grow (cap %d, len %d): an append would write into a shared list", cap(first), len(first))
	}
	second := in.conditions(list())
	if &second[0] != &first[0] {
		t.Fatal("an equal list was not shared")
	}
	// Every field, and the time's location and nanoseconds, tell lists
	// apart.
	for name, change := range map[string]func(c *metav1.Condition){
		"type":        func(c *metav1.Condition) { c.Type = "Other" },
		"status":      func(c *metav1.Condition) { c.Status = "False" },
		"reason":      func(c *metav1.Condition) { c.Reason = "Other" },
		"message":     func(c *metav1.Condition) { c.Message = "other" },
		"generation":  func(c *metav1.Condition) { c.ObservedGeneration = 2 },
		"instant":     func(c *metav1.Condition) { c.LastTransitionTime = metav1.NewTime(at.Add(time.Second)) },
		"nanoseconds": func(c *metav1.Condition) { c.LastTransitionTime = metav1.NewTime(at.Add(time.Nanosecond)) },
		"location":    func(c *metav1.Condition) { c.LastTransitionTime = metav1.NewTime(at.In(time.FixedZone("X", 0))) },
		// Fields split differently must not make one key.
		"boundary": func(c *metav1.Condition) { c.Type, c.Status = "AcceptedTrue", "" },
	} {
		l := list()
		change(&l[0])
		if got := in.conditions(l); &got[0] == &first[0] {
			t.Errorf("%s: a different list was given the shared one", name)
		}
	}
	if got := in.conditions(nil); got != nil {
		t.Fatalf("no conditions gave %v", got)
	}
}

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
