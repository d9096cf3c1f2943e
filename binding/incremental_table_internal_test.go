package binding

import (
	"cmp"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// tableEntry is one entry of a hashTable's model.
type tableEntry struct {
	k uint64
	v int32
}

func compareEntries(a, b tableEntry) int { return cmp.Or(cmp.Compare(a.k, b.k), cmp.Compare(a.v, b.v)) }

// A hashTable holds what a list of its entries would hold, after any
// inserts and removals: every entry is found from its key, none is found
// that was removed, and walking the slots gives the list. Keys are drawn
// from a few values, some sharing a home slot, so runs grow long, wrap
// past the last slot and are mended by removals in their middle.
func TestHashTable_HoldsWhatAListHolds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		set := rapid.Bool().Draw(t, "set")
		tab := newHashTable(rapid.IntRange(0, 40).Draw(t, "hint"), set)
		if rapid.Bool().Draw(t, "zero") {
			tab = hashTable{set: set}
		}
		var model []tableEntry
		key := rapid.Custom(func(t *rapid.T) uint64 {
			// Multiples of 2^61 share the home slot of small tables.
			return rapid.SampledFrom([]uint64{1, 2, 3, 1 << 61, 2 << 61, 3 << 61, 1<<63 | 5, ^uint64(0) - 60}).Draw(t, "k") +
				uint64(rapid.IntRange(0, 60).Draw(t, "off"))
		})
		val := func(t *rapid.T) int32 {
			if set {
				return 0
			}
			return rapid.Int32Range(0, 3).Draw(t, "v")
		}
		t.Repeat(map[string]func(*rapid.T){
			"insert": func(t *rapid.T) {
				e := tableEntry{key.Draw(t, "key"), val(t)}
				if set && slices.Contains(model, e) {
					t.Skip("a set holds a key once")
				}
				tab.insert(e.k, e.v)
				model = append(model, e)
			},
			"remove": func(t *rapid.T) {
				e := tableEntry{key.Draw(t, "key"), val(t)}
				if len(model) > 0 && rapid.Bool().Draw(t, "held") {
					e = model[rapid.IntRange(0, len(model)-1).Draw(t, "i")]
				}
				i := slices.Index(model, e)
				if got := tab.remove(e.k, e.v); got != (i >= 0) {
					t.Fatalf("remove(%#x, %d) = %v, want %v", e.k, e.v, got, i >= 0)
				}
				if i >= 0 {
					model = slices.Delete(model, i, i+1)
				}
			},
			"": func(t *rapid.T) {
				if tab.n != len(model) {
					t.Fatalf("n = %d, want %d", tab.n, len(model))
				}
				for _, e := range model {
					if _, ok := tab.find(e.k, func(v int32) bool { return v == e.v }); !ok {
						t.Fatalf("entry %#x=%d not found", e.k, e.v)
					}
				}
				var walked []tableEntry
				tab.each(func(k uint64, v int32) { walked = append(walked, tableEntry{k, v}) })
				want := slices.Clone(model)
				slices.SortFunc(want, compareEntries)
				slices.SortFunc(walked, compareEntries)
				if !slices.Equal(walked, want) {
					t.Fatalf("the slots hold %v, want %v", walked, want)
				}
				k := key.Draw(t, "probe")
				if got, want := tab.has(k), slices.ContainsFunc(model, func(e tableEntry) bool { return e.k == k }); got != want {
					t.Fatalf("has(%#x) = %v, want %v", k, got, want)
				}
			},
		})
	})
}
