package cli

import (
	"io"
	"math"
	"os"
	"runtime/debug"
	"slices"
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
)

// A large manifest stream is held once, as typed objects, while the
// engine evaluates it; these helpers, and the compact chunks of
// chunks.go, keep that copy small, and limitMemory keeps the collector
// close to what is live. The peak is reached inside the evaluation
// (docs/limits.md); the reader itself holds one document.
//
// What each bought was measured on 2026-12-01 with `eval -o yaml` of
// genstream's 100,000 Bindings over 1,000 namespaces (53 MB), peak
// resident set from /usr/bin/time over the input: 4.15x before; 3.03x
// once outcomes were taken one at a time (binding.EvaluateEach) and
// condition lists shared; 2.49x with the compact chunks; 1.86x with the
// budget at 1.6 times the input. The string interner pays for itself
// because the decoder allocates every namespace, reference name and
// condition string anew for each Binding (without it the peak was 6%
// higher before these changes).

// interner shares the strings that repeat across thousands of Bindings
// (namespaces, reference names, condition types, statuses and reasons),
// which the JSON decoder allocates anew for each occurrence, and whole
// condition lists: the lists read, and the lists the engine computes,
// which are alike wherever Bindings are in the same state and were
// stamped at the same instant (a stream of 100,000 such Bindings holds
// one list instead of 100,000 of 384 bytes). A shared list is never
// written to: eval replaces a Binding's list, never edits it, and the
// engine does not modify its snapshot.
type interner struct {
	strs  map[string]string
	lists map[string][]metav1.Condition
	key   []byte // scratch for listKey
}

func newInterner() *interner {
	return &interner{strs: map[string]string{}, lists: map[string][]metav1.Condition{}}
}

// maxInterned bounds each table, so a stream of unique values cannot
// make it grow without end.
const maxInterned = 1 << 16

func (in *interner) str(s *string) {
	if *s == "" {
		return
	}
	if v, ok := in.strs[*s]; ok {
		*s = v
		return
	}
	if len(in.strs) < maxInterned {
		in.strs[*s] = *s
	}
}

func (in *interner) binding(b *akv1.Binding) {
	in.str(&b.Namespace)
	in.str(&b.APIVersion)
	in.str(&b.Kind)
	in.str(&b.Spec.Agent.BackendRef.Name)
	in.str(&b.Spec.Agent.BackendRef.Namespace)
	in.str(&b.Spec.Chat.ConnectionRef.Name)
	in.str(&b.Spec.Chat.ConnectionRef.Namespace)
	b.Status.Conditions = in.conditions(b.Status.Conditions)
}

// conditions returns the list kept for conds' value, keeping conds (its
// strings shared, its capacity cut to its length, so that no append can
// write into a list another Binding holds) when it is the first of its
// value.
func (in *interner) conditions(conds []metav1.Condition) []metav1.Condition {
	if len(conds) == 0 {
		return conds
	}
	in.key = listKey(in.key[:0], conds)
	if v, ok := in.lists[string(in.key)]; ok {
		return v
	}
	for i := range conds {
		c := &conds[i]
		in.str(&c.Type)
		st := string(c.Status)
		in.str(&st)
		c.Status = metav1.ConditionStatus(st)
		in.str(&c.Reason)
		in.str(&c.Message)
	}
	conds = slices.Clip(conds)
	if len(in.lists) < maxInterned {
		in.lists[string(in.key)] = conds
	}
	return conds
}

// listKey appends to b every field of every condition, each string with
// its length before it, so that two lists have one key only if no
// output, or the engine, can tell them apart. A time is its instant and
// its location's name.
func listKey(b []byte, conds []metav1.Condition) []byte {
	str := func(s string) {
		b = strconv.AppendInt(b, int64(len(s)), 10)
		b = append(b, ':')
		b = append(b, s...)
	}
	for i := range conds {
		c := &conds[i]
		str(c.Type)
		str(string(c.Status))
		str(c.Reason)
		str(c.Message)
		b = strconv.AppendInt(b, c.ObservedGeneration, 10)
		b = append(b, ',')
		t := c.LastTransitionTime.Time
		b = strconv.AppendInt(b, t.Unix(), 10)
		b = append(b, '.')
		b = strconv.AppendInt(b, int64(t.Nanosecond()), 10)
		b = append(b, ',')
		str(t.Location().String())
	}
	return b
}

// limitMemory makes the garbage collector work harder as the heap nears
// a budget proportional to the input, instead of letting the heap grow
// by half between collections. It returns the reader to read in place of
// in, and a func that restores the collector's previous settings.
//
// The budget is 1.6 times the input: what eval holds at its peak, inside
// the evaluation, is 1.4 times a stream of Bindings (the Bindings, their
// strings, the engine's working state and its memory of served
// generations), so the collector has room to work without running all
// the time, and the resident set, which adds the program itself (about
// 16 MB), stays under twice the input. At 3 times, as before, the heap
// grew to the budget and the resident set with it (2.49 against 1.86
// times the input on 100k Bindings, 53 MB). An input that needs more
// than its budget is still evaluated: the limit is soft, and the runtime
// caps the collector's share of the CPU at half when it is reached.
//
// A regular file's budget is set from its size at once. Any other input
// (stdin, a pipe) has no size to read, so the budget grows as the input
// is read: after its last byte it is the one a file of that size would
// have had from the start, and the evaluation, which comes after the
// reading, runs under it.
//
// One large document (a scenario file, a YAML List) is converted from
// YAML all at once, which takes about twenty times its size for a
// moment: under a budget of 1.6 times the input the collector then ran
// without a break (docs/performance.md). The reader tells the returned
// budget each document's size (newStream wires manifest.Reader.Sized to
// it; a JSON List's items are each a document), and the budget is never
// below perDocument times the largest document read so far.
func limitMemory(in io.Reader) (*budget, func()) {
	oldLimit := debug.SetMemoryLimit(math.MaxInt64)
	oldPercent := debug.SetGCPercent(50)
	restore := func() {
		debug.SetMemoryLimit(oldLimit)
		debug.SetGCPercent(oldPercent)
	}
	b := &budget{r: in, next: 1 << 20}
	if f, ok := in.(*os.File); ok {
		if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
			b.n, b.sized = info.Size(), true
		}
	}
	b.set()
	return b, restore
}

// perDocument is how many times its size converting one YAML document
// may take, with room: a scenario of Bindings peaks near twenty-two.
const perDocument = 24

// memoryBudget is the collector's budget for an input of n bytes.
func memoryBudget(n int64) int64 {
	const floor = 64 << 20
	return max(n*8/5, floor)
}

// budget is the input as eval reads it, and the memory budget that
// follows it: it raises the budget as the bytes read grow (for an input
// of unknown size), by an eighth at a time (at least 1 MiB), so that
// setting it costs nothing next to the reading, and as the largest
// document grows.
type budget struct {
	r       io.Reader
	n, next int64
	// sized is set when n is the whole input's size, known from the
	// start.
	sized   bool
	largest int64
}

func (b *budget) Read(p []byte) (int, error) {
	k, err := b.r.Read(p)
	if b.sized {
		return k, err
	}
	b.n += int64(k)
	if b.n >= b.next || err != nil {
		b.set()
		b.next = b.n + max(b.n/8, 1<<20)
	}
	return k, err
}

// document is told the size of each document before it is converted.
func (b *budget) document(size int) {
	if int64(size) > b.largest {
		b.largest = int64(size)
		b.set()
	}
}

func (b *budget) set() {
	debug.SetMemoryLimit(max(memoryBudget(b.n), b.largest*perDocument))
}
