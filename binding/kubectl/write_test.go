package kubectl

import (
	"bytes"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
)

// Write prints Get's bytes, past kubectl's chunks of 500 rows and among Bindings
// that tie on namespace, name and UID.
func TestWrite_IsGet(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.SampledFrom([]int{0, 1, 7, 499, 500, 501, 1003}).Draw(t, "n")
		bs := make([]akv1.Binding, n)
		for i := range bs {
			ns := rapid.SampledFrom([]string{"a", "team-b"}).Draw(t, "ns")
			name := "b" + strconv.Itoa(rapid.IntRange(0, n/2).Draw(t, "name"))
			name += rapid.SampledFrom([]string{"", "-a-longer-name"}).Draw(t, "suffix")
			channel := rapid.SampledFrom([]string{"C1", "C22"}).Draw(t, "channel")
			age := time.Duration(rapid.IntRange(0, 3).Draw(t, "age")) * time.Hour
			st := rapid.SampledFrom([][]string{nil, {"True", "OK"}, {"False", "Accepted:ChannelConflict"}}).Draw(t, "ready")
			bs[i] = mk(ns, name, channel, age, st...)
			bs[i].UID = types.UID(rapid.SampledFrom([]string{"u1", "u2"}).Draw(t, "uid"))
		}
		var got bytes.Buffer
		if err := Write(&got, bs, now); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(Get(bs, now), got.String()); d != "" {
			t.Fatalf("Write differs from Get:\n%s", d)
		}
	})
}

// failAfter takes left bytes, then fails every write, counting them.
type failAfter struct{ left, failed int }

var errFull = errors.New("disk full")

func (f *failAfter) Write(p []byte) (int, error) {
	if f.failed > 0 || f.left < len(p) {
		f.failed++
		return 0, errFull
	}
	f.left -= len(p)
	return len(p), nil
}

// The first error of the writer is returned, and nothing is written
// after it.
func TestWrite_ReturnsTheWritersError(t *testing.T) {
	bs := make([]akv1.Binding, 1500)
	for i := range bs {
		bs[i] = mk("ns", "b"+strconv.Itoa(i), "C1", time.Hour, "True", "OK")
	}
	w := &failAfter{left: 100}
	if err := Write(w, bs, now); !errors.Is(err, errFull) {
		t.Fatalf("got %v, want %v", err, errFull)
	}
	if w.failed != 1 {
		t.Fatalf("%d writes failed, want Write to stop at the first", w.failed)
	}
}
