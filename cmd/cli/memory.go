package cli

import (
	"io"
	"math"
	"os"
	"runtime/debug"
)

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
// without a break (measured on an eval of one large document). The reader tells the returned
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
