package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/manifest"
)

// The bounds of docs/limits.md ("Cost bounded by size"), measured on the
// commands and the library decoders as a user or a host runs them: for
// every shape of input, at a size and at four times that size, a child
// process reads it, and its peak resident memory above an empty input's
// is at most costPerByte times the input, and its CPU time grows at most
// costTimeGrowth times. Opt-in: it builds the command and reads about a
// gigabyte of input in all.
//
//	CONDENGINE_COST=1 go test -run Cost -v ./cmd/condengine
//
// manifest's TestCost_BoundedBySizeAndDepth checks allocation and time
// on every run, on smaller inputs.

// costPerByte is the peak resident memory a reader may hold per byte of
// input, beyond what it holds for an empty one: JSON and the reader's
// own work take a few times the input; converting one YAML document to
// JSON (sigs.k8s.io/yaml, the library kubectl uses) up to about 70
// times that document while it lasts (docs/limits.md).
var costPerByte = map[string]float64{"json": 16, "yaml": 80}

// costTimeGrowth bounds how CPU time may grow when the input grows four
// times: n log n, with room for a shared machine and for what explain
// sorts; quadratic is 16.
const costTimeGrowth = 10

// costInputs are the shapes, each built at about n bytes, with the
// format it is written in.
var costInputs = []struct {
	name, format string
	build        func(n int) string
}{
	{"YAML stream", "yaml", func(n int) string {
		return costRepeat(n, "", "---\n", "", func(i int) string { return fmt.Sprintf(costBinding, i, i, i) })
	}},
	{"YAML List", "yaml", func(n int) string {
		return costRepeat(n, "apiVersion: v1\nkind: List\nitems:\n", "", "", func(i int) string {
			return "- " + strings.ReplaceAll(strings.TrimSuffix(fmt.Sprintf(costBinding, i, i, i), "\n"), "\n", "\n  ") + "\n"
		})
	}},
	{"JSON List", "json", costJSONList},
	{"BOM and a JSON List", "json", func(n int) string { return "\xef\xbb\xbf" + costJSONList(n) }},
	{"CR line ends", "yaml", func(n int) string {
		return strings.ReplaceAll(costRepeat(n, "", "---\n", "", func(i int) string { return fmt.Sprintf(costBinding, i, i, i) }), "\n", "\r")
	}},
	{"JSON Lists nested as deep as they grow", "json", func(n int) string {
		depth := n / 1024
		return strings.Repeat(`{"kind":"List","items":[`, depth) + costBig(n/2) + strings.Repeat("]}", depth)
	}},
	{"JSON Lists nested 32 deep", "json", func(n int) string {
		return strings.Repeat(`{"items":[`, 32) + costBig(n) + strings.Repeat(`],"kind":"List"}`, 32)
	}},
	{"brackets in brackets", "json", func(n int) string { return strings.Repeat(`{"a":[`, n/6) }},
	{"a number of n digits in JSON", "json", func(n int) string {
		return `{"apiVersion":"agentkourier.dev/v1alpha1","kind":"Binding","metadata":{"namespace":"a","name":"b","generation":` + strings.Repeat("9", n) + `}}`
	}},
	{"a number of n digits in YAML", "yaml", func(n int) string {
		return "apiVersion: agentkourier.dev/v1alpha1\nkind: Binding\nmetadata:\n  namespace: a\n  name: b\n  generation: " + strings.Repeat("9", n) + "\n"
	}},
	{"an object of many labels", "json", func(n int) string {
		return costRepeat(n, `{"apiVersion":"agentkourier.dev/v1alpha1","kind":"Binding","metadata":{"namespace":"a","name":"b","labels":{`, ",", `}}}`,
			func(i int) string { return fmt.Sprintf(`"k%d":"v"`, i) })
	}},
	{"a List of bad items", "json", func(n int) string {
		return costRepeat(n, `{"kind":"List","items":[`, ",", `]}`, func(i int) string {
			return fmt.Sprintf(`{"apiVersion":"agentkourier.dev/v1alpha1","kind":"Binding","metadata":{"name":"b%d"},"spec":{"x":1}}`, i)
		})
	}},
	{"a scenario of many objects", "yaml", func(n int) string {
		return costRepeat(n, "name: many\nsystem: binding\nnow: \"2026-11-30T10:00:00Z\"\nexpect: []\nobjects:\n", "", "", func(i int) string {
			return "- " + strings.ReplaceAll(strings.TrimSuffix(fmt.Sprintf(costBinding, i, i, i), "\n"), "\n", "\n  ") + "\n"
		})
	}},
	{"a scenario expecting a number of n digits", "yaml", func(n int) string {
		return "name: big\nsystem: finops\nnow: \"2026-11-30T10:00:00Z\"\nexpect:\n- {kind: Subscription, namespace: a, name: s, status: {costs: {total: 1" + strings.Repeat("0", n) + "}}}\n"
	}},
}

const costBinding = "apiVersion: agentkourier.dev/v1alpha1\nkind: Binding\nmetadata:\n  namespace: team\n  name: b%d\n  uid: u%d\n  generation: 2\nspec:\n  agent: {backendRef: {name: be}}\n  chat: {connectionRef: {name: c}, channel: C%d}\n"

// fixedNow is the instant every command of the cost test evaluates at.
const fixedNow = "2026-11-30T10:00:00Z"

func costRepeat(n int, head, sep, tail string, part func(i int) string) string {
	var b strings.Builder
	b.WriteString(head)
	for i := 0; b.Len() < n; i++ {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(part(i))
	}
	b.WriteString(tail)
	return b.String()
}

func costJSONList(n int) string {
	var items []json.RawMessage
	for i, size := 0, 0; size < n; i++ {
		it := fmt.Sprintf(`{"apiVersion":"agentkourier.dev/v1alpha1","kind":"Binding","metadata":{"namespace":"team","name":"b%d","uid":"u%d"},"spec":{"agent":{"backendRef":{"name":"be"}},"chat":{"connectionRef":{"name":"c"},"channel":"C%d"}}}`, i, i, i)
		items = append(items, json.RawMessage(it))
		size += len(it) + 40
	}
	out, _ := json.MarshalIndent(map[string]any{"apiVersion": "v1", "kind": "List", "items": items}, "", "    ")
	return string(out)
}

func costBig(n int) string {
	return `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","annotations":{"x":"` + strings.Repeat("x", n) + `"}}}`
}

// costReaders are the ways an input is read: the commands, and the
// library decoders in a child of this test.
var costReaders = []struct {
	name string
	args func(bin, file string) []string
}{
	{"eval", func(bin, file string) []string {
		return []string{bin, "eval", "-f", file, "-o", "yaml", "-now", fixedNow}
	}},
	{"explain", func(bin, file string) []string { return []string{bin, "explain", "-f", file, "-now", fixedNow} }},
	{"check", func(bin, file string) []string { return []string{bin, "check", file} }},
	{"manifest.Reader", costChild("reader")},
	{"binding.DecodeStream", costChild("binding")},
	{"finops.DecodeStream", costChild("finops")},
}

func costChild(mode string) func(string, string) []string {
	return func(_, file string) []string {
		return []string{os.Args[0], "-test.run=^TestCostChild$", "-test.count=1", "--", mode, file}
	}
}

// TestCostChild is the child the library readers run in: it reads the
// file the way its mode says and ends.
func TestCostChild(t *testing.T) {
	if os.Getenv("CONDENGINE_COST_CHILD") == "" {
		t.Skip("run by TestCost_BoundedBySize")
	}
	args := flagArgs()
	f, err := os.Open(args[1])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := manifest.NewReader(f)
	switch args[0] {
	case "reader":
		_ = manifest.Each(r, func(d *manifest.Document) error {
			var v map[string]any
			return d.Unmarshal(&v)
		})
	case "binding":
		_, _ = binding.DecodeStream(r)
	case "finops":
		_, _ = finops.DecodeStream(r)
	}
}

// flagArgs is what follows "--" on the command line.
func flagArgs() []string {
	for i, a := range os.Args {
		if a == "--" {
			return os.Args[i+1:]
		}
	}
	return nil
}

// costRun runs args on the file and returns the child's peak resident
// memory in bytes and its CPU time; a child past limit is stopped and
// its time counted as twice the limit. GNU time runs it: a child's peak
// as its parent reads it counts the memory of the process it was started
// from (the kernel keeps the larger at exec), and this test holds its
// inputs; time's own memory is a few megabytes.
func costRun(t *testing.T, args []string, limit time.Duration) (int64, time.Duration) {
	out := filepath.Join(t.TempDir(), "time")
	cmd := exec.Command(gnuTime, append([]string{"-o", out, "-f", "%M %U %S"}, args...)...)
	cmd.Env = append(os.Environ(), "CONDENGINE_COST_CHILD=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(limit, func() { _ = cmd.Process.Kill() })
	_ = cmd.Wait() // refusals exit 1, as they should
	if !timer.Stop() {
		return 0, 2 * limit
	}
	text, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(text)), "\n")
	var kb int64
	var user, sys float64
	if _, err := fmt.Sscan(lines[len(lines)-1], &kb, &user, &sys); err != nil {
		t.Fatalf("%s: %q", gnuTime, text)
	}
	return kb << 10, time.Duration((user + sys) * float64(time.Second))
}

const gnuTime = "/usr/bin/time"

func TestCost_BoundedBySize(t *testing.T) {
	if os.Getenv("CONDENGINE_COST") == "" {
		t.Skip("set CONDENGINE_COST=1 to measure the readers' peak memory and time on inputs of 4 and 16 MiB")
	}
	if _, err := os.Stat(gnuTime); err != nil {
		t.Skipf("measures with GNU time: %v", err)
	}
	bin := goBuild(t, ".", "condengine")
	dir := t.TempDir()
	const n = 4 << 20
	empty := filepath.Join(dir, "empty.yaml")
	writeFile(t, empty, "")
	base := map[string]int64{}
	for _, r := range costReaders {
		base[r.name], _ = costRun(t, r.args(bin, empty), time.Minute)
	}
	for _, in := range costInputs {
		small, large := filepath.Join(dir, "small."+in.format), filepath.Join(dir, "large."+in.format)
		writeFile(t, small, in.build(n))
		writeFile(t, large, in.build(4*n))
		for _, r := range costReaders {
			if r.name == "check" && !strings.HasPrefix(in.name, "a scenario") {
				continue
			}
			t.Run(in.name+"/"+r.name, func(t *testing.T) {
				peakS, cpuS := costRun(t, r.args(bin, small), 5*time.Minute)
				// The limit is on the clock, a shared machine's clock: it
				// only stops a child that would take minutes.
				limit := 10*time.Duration(costTimeGrowth*float64(max(cpuS, 100*time.Millisecond))) + time.Minute
				peakL, cpuL := costRun(t, r.args(bin, large), limit)
				t.Logf("%d MiB: peak %d MiB above empty, CPU %v; %d MiB: peak %d MiB above empty, CPU %v",
					n>>20, (peakS-base[r.name])>>20, cpuS.Round(time.Millisecond), 4*n>>20, (peakL-base[r.name])>>20, cpuL.Round(time.Millisecond))
				for _, c := range []struct {
					size int
					peak int64
				}{{n, peakS}, {4 * n, peakL}} {
					if per := float64(c.peak-base[r.name]) / float64(c.size); per > costPerByte[in.format] {
						t.Errorf("%d MiB of %s: peak %.1f times the input, want at most %.0f", c.size>>20, in.format, per, costPerByte[in.format])
					}
				}
				// A child that ends within a tenth of a second is mostly
				// its own start.
				if growth := float64(cpuL) / float64(max(cpuS, 100*time.Millisecond)); growth > costTimeGrowth {
					t.Errorf("CPU time grew %.1f times for an input four times larger", growth)
				}
			})
		}
	}
}

// goBuild builds the main package pkg into a temporary directory as name
// and returns the binary's path.
func goBuild(t *testing.T, pkg, name string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), name)
	if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin
}

// writeFile writes data to path or fails t.
func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
