package cli

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/condengine/condengine/cmd/internal/genstream"
)

// TestEval_LargeStream_PeakMemoryUnderTwiceTheInput runs the built
// command on a stream of 100k Bindings (about 53 MB) and reads the child's
// peak resident set from the kernel: the goal is at most twice the
// input, read from a file or from a pipe. It takes about 30 s on two cores, so it runs only with
// CONDENGINE_PERF=1. CONDENGINE_PERF_N changes the size, for a quicker
// look while iterating; the bound is for 100k Bindings and more: on a
// smaller stream the program's own 16 MB and the 64 MiB floor of the
// collector's budget weigh more than the input (20k Bindings, 10.6 MB,
// peak at 4.0 times; 50k, 26.6 MB, at 2.7 times).
func TestEval_LargeStream_PeakMemoryUnderTwiceTheInput(t *testing.T) {
	n := perfBindings(t)
	input := perfInput(t, "bindings.yaml", func(w io.Writer) error { return genstream.Write(w, n, max(1, n/100)) })
	bin := goBuild(t, "../condengine", "condengine")
	for _, run := range []struct{ format, from string }{{"yaml", "file"}, {"table", "file"}, {"yaml", "pipe"}} {
		peakUnderTwiceTheInput(t, bin, input, run.format, run.from, n)
	}
}

// TestEval_LargeList_PeakMemoryUnderTwiceTheInput is the same for the
// same Bindings as one JSON List, compact (about 56 MB) and as `kubectl
// get -o json` prints it (136 MB), which the reader takes item by item.
// genstream.WriteList writes the List without holding it: the kernel
// counts the parent's peak resident set into the child's when the child
// starts, so a test that held its input would measure itself.
func TestEval_LargeList_PeakMemoryUnderTwiceTheInput(t *testing.T) {
	n := perfBindings(t)
	bin := goBuild(t, "../condengine", "condengine")
	for _, list := range []struct{ name, indent string }{{"compact-list.json", ""}, {"kubectl-list.json", "    "}} {
		input := perfInput(t, list.name, func(w io.Writer) error { return genstream.WriteList(w, n, max(1, n/100), list.indent) })
		peakUnderTwiceTheInput(t, bin, input, "yaml", "file", n)
	}
}

// perfBindings is the number of Bindings of a measure: 100k, or
// CONDENGINE_PERF_N; the measure is skipped without CONDENGINE_PERF.
func perfBindings(t *testing.T) int {
	onlyWith(t, "CONDENGINE_PERF", "measure eval on 100k Bindings")
	n := 100000
	if s := os.Getenv("CONDENGINE_PERF_N"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	return n
}

// perfInput writes a file of the given name with write.
func perfInput(t *testing.T, name string, write func(io.Writer) error) string {
	input := filepath.Join(t.TempDir(), name)
	f, err := os.Create(input)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	if err := write(w); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return input
}

// peakUnderTwiceTheInput runs `bin eval` on input, from the file or from
// a pipe, and fails when the child's peak resident set is over twice the
// input's size.
func peakUnderTwiceTheInput(t *testing.T, bin, input, format, from string, n int) {
	t.Helper()
	info, err := os.Stat(input)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "eval", "-f", input, "-o", format, "-now", fixedNow)
	if from == "pipe" {
		// stdin as a pipe: no size to read up front, so the budget
		// grows as the stream is read.
		cmd = exec.Command(bin, "eval", "-o", format, "-now", fixedNow)
		in, err := os.Open(input)
		if err != nil {
			t.Fatal(err)
		}
		defer in.Close()
		cmd.Stdin = struct{ io.Reader }{in} // hides the *os.File: exec copies through a pipe
	}
	cmd.Stdout = io.Discard
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	wall := time.Since(start)
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	peak := ru.Maxrss * 1024 // kilobytes on Linux
	ratio := float64(peak) / float64(info.Size())
	name := filepath.Base(input)
	t.Logf("%s, -o %s from a %s: %d Bindings, input %.1f MB, wall %v, user %v, peak RSS %.1f MB (%.2fx the input)",
		name, format, from, n, float64(info.Size())/1e6, wall.Round(time.Millisecond),
		time.Duration(ru.Utime.Nano()).Round(time.Millisecond), float64(peak)/1e6, ratio)
	if ratio > 2 {
		t.Errorf("%s, -o %s from a %s: peak memory %.2fx the input, want at most 2x", name, format, from, ratio)
	}
}

func benchmarkEval(b *testing.B, n int) {
	var buf bytes.Buffer
	if err := genstream.Write(&buf, n, max(1, n/100)); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	now, _ := time.Parse(time.RFC3339, fixedNow)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if err := seedCmd.evalTo(io.Discard, "yaml", "bench", bytes.NewReader(data), now, func([]string) {}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/binding")
}

func BenchmarkEval_1k(b *testing.B)  { benchmarkEval(b, 1000) }
func BenchmarkEval_10k(b *testing.B) { benchmarkEval(b, 10000) }
