package manifest

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// endless repeats its pattern forever, as /dev/zero does, and counts
// what was read from it.
type endless struct {
	pattern []byte
	off     int
	read    int64
}

func (e *endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		c := copy(p[n:], e.pattern[e.off:])
		n += c
		e.off = (e.off + c) % len(e.pattern)
	}
	e.read += int64(n)
	return n, nil
}

// drain reads r to its first error.
func drain(r *Reader) error {
	for {
		if _, err := r.Next(); err != nil {
			return err
		}
	}
}

// allocated runs f and returns the bytes it allocated.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// slack is what a Reader may read past a limit: one buffer.
const slack = 64 << 10

func TestReader_EndlessZeroes_StopsAtTheDocumentLimit(t *testing.T) {
	src := &endless{pattern: make([]byte, 4096)}
	r := NewReader(src)
	r.File = "/dev/zero"
	var err error
	alloc := allocated(func() { err = drain(r) })

	require.Error(t, err)
	assert.ErrorIs(t, err, ErrLimit)
	var de *DocumentError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "/dev/zero", de.File)
	assert.Equal(t, 1, de.Index)
	assert.Equal(t, "/dev/zero: document 1, line 1: the document is larger than MaxDocumentBytes (64 MiB); split the input", err.Error())
	assert.LessOrEqual(t, src.read, int64(MaxDocumentBytes+slack), "nothing is read past the limit but one buffer")
	assert.Less(t, alloc, uint64(3*MaxDocumentBytes), "the reader holds one document at most")
}

func TestReader_OversizedDocument_FailsAtTheLimitNotAtTheEnd(t *testing.T) {
	// A 200 MB document of short lines: the limit applies while reading.
	src := &endless{pattern: []byte("key: value\n")}
	r := NewReader(io.LimitReader(src, 200<<20))
	r.Limits = Limits{Document: 1 << 20}
	var err error
	alloc := allocated(func() { err = drain(r) })

	var le *LimitError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, "MaxDocumentBytes", le.Limit)
	assert.LessOrEqual(t, src.read, int64(1<<20+slack))
	assert.Less(t, alloc, uint64(4<<20))
}

func TestReader_OversizedStream_FailsAtTheStreamLimit(t *testing.T) {
	src := &endless{pattern: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n---\n")}
	r := NewReader(src)
	r.File = "endless.yaml"
	r.Limits = Limits{Stream: 1 << 20}
	var err error
	alloc := allocated(func() { err = drain(r) })

	var le *LimitError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, "MaxStreamBytes", le.Limit)
	assert.Contains(t, err.Error(), "endless.yaml: document ")
	assert.Contains(t, err.Error(), "the stream is larger than MaxStreamBytes (1 MiB)")
	assert.LessOrEqual(t, src.read, int64(1<<20+slack))
	// Each document is converted and dropped; the stream itself is never
	// held. Converting YAML costs about 30 times a small document's size
	// in garbage, never more than the stream's worth at once.
	t.Logf("allocated %d bytes for a 1 MiB stream", alloc)
	_, again := r.Next()
	assert.Equal(t, err, again, "the error is sticky")
}

func TestReader_StreamOfExactlyTheLimitIsRead(t *testing.T) {
	doc := "kind: A\n---\n"
	in := strings.Repeat(doc, 100)
	r := NewReader(strings.NewReader(in))
	r.Limits = Limits{Stream: int64(len(in))}
	n := 0
	for {
		_, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		n++
	}
	assert.Equal(t, 100, n)
}

func TestReader_DocumentOfExactlyTheLimitIsRead(t *testing.T) {
	var b strings.Builder
	for i := range 1000 { // distinct keys: a mapping holds each once
		fmt.Fprintf(&b, "k%03d: v\n", i)
	}
	doc := b.String()
	r := NewReader(strings.NewReader(doc + "---\n" + doc))
	r.Limits = Limits{Document: int64(len(doc))}
	_, err := r.Next()
	require.NoError(t, err)
	_, err = r.Next()
	require.NoError(t, err)
}

func TestSplit_UsesTheSameLimits(t *testing.T) {
	big := strings.Repeat("a", MaxDocumentBytes+1)
	_, err := Split([]byte("k: " + big))
	assert.ErrorIs(t, err, ErrLimit)
}

func TestLimitError_SaysTheSize(t *testing.T) {
	for n, want := range map[int64]string{1 << 30: "1 GiB", 64 << 20: "64 MiB", 1 << 20: "1 MiB", 4 << 10: "4 KiB", 1 << 10: "1 KiB", 1000: "1000 bytes", 1025: "1025 bytes", 3 << 29: "1536 MiB"} {
		assert.Equal(t, want, size(n))
	}
}
