// Package scenariogen holds what the seed systems' generators share to
// write a drawn snapshot as a scenario file and to push it toward the
// cases their rapid generators rarely draw: the file's objects as
// generic JSON objects, the one-object-per-identity writer, and the
// pushes every kind takes (a condition ahead of its object's generation,
// another controller's condition, an integer a float64 cannot hold).
package scenariogen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/condengine/condengine/scenario"
)

// Push is a system's own push of a generated snapshot: it may change f's
// blocks and objs (f's objects, decoded), drawing from r, and returns
// objs with what it added.
type Push func(f *scenario.File, objs []map[string]any, r *rand.Rand) []map[string]any

// Boundaries pushes f, a generated snapshot, toward the cases the
// generators rarely draw: first with system (the system's own pushes),
// then with the pushes every kind takes. It draws from its own source
// seeded by seed, so a snapshot stays reproducible; a third of the seeds
// are left as drawn. f is changed in place.
func Boundaries(f *scenario.File, seed int, system Push) {
	if seed%3 == 0 {
		return
	}
	r := rand.New(rand.NewPCG(uint64(seed), 0x636f6e666f726d)) // "conform"
	objs := Decode(f.Objects)
	objs = system(f, objs, r)
	if r.IntN(4) == 0 {
		conditionAhead(objs, r)
	}
	if r.IntN(4) == 0 {
		foreignCondition(objs, f.Now.Time, r)
	}
	if r.IntN(5) == 0 {
		extremeGeneration(objs, r)
	}
	f.Objects = Encode(objs, f.Objects)
}

// Generate names f, snapshot seed of the system called name as drawn,
// and returns a copy pushed by Boundaries with system when run accepts
// it, else f as drawn: a push may build a snapshot the engine refuses.
// It is what a system's Generate does after drawing.
func Generate(f *scenario.File, name string, seed int, system Push, run func(*scenario.File) error) *scenario.File {
	f.Name = fmt.Sprintf("generated %s snapshot, seed %d", name, seed)
	b := Clone(f)
	Boundaries(b, seed, system)
	if run(b) == nil {
		return b
	}
	return f
}

// Clone copies f deeply enough that a push of the copy, or entries
// dropped from it (conform's shrinker), leave f's lists and blocks as
// they were; the entries of Probes are copied as they are, pointers
// included.
func Clone(f *scenario.File) *scenario.File {
	c := *f
	c.Objects = slices.Clone(f.Objects)
	c.Probes = slices.Clone(f.Probes)
	c.Served = slices.Clone(f.Served)
	c.Failures = slices.Clone(f.Failures)
	c.Expect = slices.Clone(f.Expect)
	c.Observed = slices.Clone(f.Observed)
	if f.Collection != nil {
		col := *f.Collection
		col.Results = slices.Clone(f.Collection.Results)
		c.Collection = &col
	}
	return &c
}

// Writer appends manifests to a scenario file, one per kind, namespace
// and name, as the API server holds them and the strict decoder demands.
type Writer struct {
	F    *scenario.File
	seen map[[4]string]bool
}

// Add appends obj as a manifest of the given apiVersion and kind,
// whatever its TypeMeta says, unless an object of that kind, namespace
// and name is already written.
func (w *Writer) Add(apiVersion, kind string, obj any) error {
	raw, err := json.Marshal(obj)
	if err != nil {
		return fmt.Errorf("%s: %w", kind, err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("%s: %w", kind, err)
	}
	var meta struct{ Namespace, Name string }
	if err := json.Unmarshal(m["metadata"], &meta); err != nil && len(m["metadata"]) > 0 {
		return fmt.Errorf("%s: metadata: %w", kind, err)
	}
	key := [4]string{apiVersion, kind, meta.Namespace, meta.Name}
	if w.seen[key] {
		return nil
	}
	if w.seen == nil {
		w.seen = map[[4]string]bool{}
	}
	w.seen[key] = true
	m["apiVersion"], _ = json.Marshal(apiVersion)
	m["kind"], _ = json.Marshal(kind)
	out, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("%s: %w", kind, err)
	}
	w.F.Objects = append(w.F.Objects, out)
	return nil
}

// Identity is the metadata of an object known by its namespace and
// name only.
func Identity(ns, name string) map[string]string {
	m := map[string]string{"name": name}
	if ns != "" {
		m["namespace"] = ns
	}
	return m
}

// Decode reads each manifest of raws as a generic object, numbers kept
// as their decimal text; one that does not decode is nil.
func Decode(raws []json.RawMessage) []map[string]any {
	out := make([]map[string]any, 0, len(raws))
	for _, raw := range raws {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var m map[string]any
		if dec.Decode(&m) != nil {
			m = nil
		}
		out = append(out, m)
	}
	return out
}

// Encode writes objs back; an object that did not decode keeps
// its raw form (the first len(raws) entries match raws).
func Encode(objs []map[string]any, raws []json.RawMessage) []json.RawMessage {
	out := make([]json.RawMessage, 0, len(objs))
	for i, m := range objs {
		if m != nil && m[Dropped] != nil {
			continue
		}
		b, err := json.Marshal(m)
		if m == nil || err != nil {
			if i < len(raws) {
				out = append(out, raws[i])
			}
			continue
		}
		out = append(out, b)
	}
	return out
}

// Dig is the value at path in a decoded object, nil where the path
// ends early or crosses a value that is not an object.
func Dig(m map[string]any, path ...string) any {
	v, _, _ := unstructured.NestedFieldNoCopy(m, path...)
	return v
}

// Text is v when it is a string, else "".
func Text(v any) string { s, _ := v.(string); return s }

// CopyAs is a deep copy of m under another namespace, name and uid.
func CopyAs(m map[string]any, ns, name string) map[string]any {
	b, err := json.Marshal(m)
	if err != nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var c map[string]any
	if dec.Decode(&c) != nil {
		return nil
	}
	md, ok := c["metadata"].(map[string]any)
	if !ok {
		return nil
	}
	md["namespace"], md["name"] = ns, name
	md["uid"] = fmt.Sprintf("%s-%s-%s", Text(md["uid"]), ns, name)
	return c
}

// extremeGeneration sets one object's generation to 2^53+1 or 2^63-1,
// the integers a float64 cannot hold.
func extremeGeneration(objs []map[string]any, r *rand.Rand) {
	var with []map[string]any
	for _, m := range objs {
		if m != nil && Dig(m, "metadata", "generation") != nil {
			with = append(with, m)
		}
	}
	if len(with) == 0 {
		return
	}
	m := with[r.IntN(len(with))]
	g := json.Number("9007199254740993")
	if r.IntN(2) == 0 {
		g = json.Number(fmt.Sprint(int64(math.MaxInt64)))
	}
	m["metadata"].(map[string]any)["generation"] = g
}

// conditionAhead gives one condition of one object an observedGeneration
// above the object's generation.
func conditionAhead(objs []map[string]any, r *rand.Rand) {
	for _, i := range r.Perm(len(objs)) {
		n, _ := Dig(objs[i], "metadata", "generation").(json.Number)
		g, err := n.Int64()
		conds, _ := Dig(objs[i], "status", "conditions").([]any)
		if err != nil || g == math.MaxInt64 || len(conds) == 0 {
			continue
		}
		if c, ok := conds[r.IntN(len(conds))].(map[string]any); ok {
			c["observedGeneration"] = g + 1
			return
		}
	}
}

// foreignCondition adds a condition of another controller to one object
// that has a status.
func foreignCondition(objs []map[string]any, now time.Time, r *rand.Rand) {
	for _, i := range r.Perm(len(objs)) {
		st, ok := objs[i]["status"].(map[string]any)
		if !ok || objs[i]["kind"] == "ConfigMap" {
			continue
		}
		conds, _ := st["conditions"].([]any)
		c := map[string]any{"type": "example.com/Audited", "status": "True", "reason": "Checked", "message": "",
			"lastTransitionTime": now.Add(-time.Hour).UTC().Format(time.RFC3339)}
		st["conditions"] = append(conds[:len(conds):len(conds)], c)
		return
	}
}

// Dropped is the key that marks an object a push took out of the
// snapshot; Encode leaves such an object out.
const Dropped = "\x00dropped"
