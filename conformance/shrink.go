package conformance

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/condengine/condengine/internal/scenariogen"
	"github.com/condengine/condengine/scenario"
)

// Shrink returns the smallest scenario it finds, made from f by dropping
// list entries (objects, memory, probes, failures, collection results,
// and the entries of each list at the top of the observed block) and
// optional blocks (broker, collection), on which fails still holds.
// It tries halves, then quarters and so on down to single entries, and
// starts again while anything was dropped, calling fails at most budget
// times. f itself is not modified; fails must be deterministic.
func Shrink(f *scenario.File, fails func(*scenario.File) bool, budget int) *scenario.File {
	return shrink(f, func(c *scenario.File) (bool, bool) { return fails(c), false }, budget)
}

// shrink is Shrink with a test that can also end the search: once it
// answers stop, no further candidate is tried and the smallest failing
// scenario found so far is returned.
func shrink(f *scenario.File, test func(*scenario.File) (fails, stop bool), budget int) *scenario.File {
	cur := scenariogen.Clone(f)
	calls := 0
	try := func(c *scenario.File) bool {
		if calls >= budget {
			return false
		}
		calls++
		fails, stop := test(c)
		if stop {
			budget = calls // every loop below ends on calls < budget
		}
		if fails {
			cur = c
			return true
		}
		return false
	}
	for progress := true; progress && calls < budget; {
		progress = false
		for _, l := range append(slices.Clip(lists), observedLists(cur)...) {
			for chunk := max(l.len(cur)/2, 1); chunk >= 1 && calls < budget; chunk /= 2 {
				for lo := 0; lo < l.len(cur) && calls < budget; {
					c := scenariogen.Clone(cur)
					l.drop(c, lo, min(lo+chunk, l.len(c)))
					if try(c) {
						progress = true
					} else {
						lo += chunk
					}
				}
			}
		}
		if cur.Collection != nil {
			c := scenariogen.Clone(cur)
			c.Collection = nil
			progress = try(c) || progress
		}
		if cur.Broker != nil {
			c := scenariogen.Clone(cur)
			c.Broker = nil
			progress = try(c) || progress
		}
	}
	return cur
}

// list is one list of a scenario the shrinker may drop entries from.
type list struct {
	len  func(*scenario.File) int
	drop func(f *scenario.File, lo, hi int)
}

var lists = []list{
	{func(f *scenario.File) int { return len(f.Objects) }, func(f *scenario.File, lo, hi int) { f.Objects = slices.Delete(f.Objects, lo, hi) }},
	{func(f *scenario.File) int { return len(f.Probes) }, func(f *scenario.File, lo, hi int) { f.Probes = slices.Delete(f.Probes, lo, hi) }},
	{func(f *scenario.File) int { return len(f.Served) }, func(f *scenario.File, lo, hi int) { f.Served = slices.Delete(f.Served, lo, hi) }},
	{func(f *scenario.File) int { return len(f.Failures) }, func(f *scenario.File, lo, hi int) { f.Failures = slices.Delete(f.Failures, lo, hi) }},
	{func(f *scenario.File) int {
		if f.Collection == nil {
			return 0
		}
		return len(f.Collection.Results)
	}, func(f *scenario.File, lo, hi int) { f.Collection.Results = slices.Delete(f.Collection.Results, lo, hi) }},
}

// observedLists are the lists at the top of f's observed block, each
// known by its key, in the order of the keys: the shrinker drops their
// entries as it drops objects. A block that is not a mapping has none.
func observedLists(f *scenario.File) []list {
	top, err := observedKeys(f)
	if err != nil {
		return nil
	}
	var out []list
	for _, key := range slices.Sorted(maps.Keys(top)) {
		var entries []json.RawMessage
		if json.Unmarshal(top[key], &entries) != nil || entries == nil {
			continue
		}
		entriesOf := func(f *scenario.File) []json.RawMessage {
			m, _ := observedKeys(f)
			var e []json.RawMessage
			_ = json.Unmarshal(m[key], &e)
			return e
		}
		out = append(out, list{
			len: func(f *scenario.File) int { return len(entriesOf(f)) },
			drop: func(f *scenario.File, lo, hi int) {
				m, err := observedKeys(f)
				if err != nil {
					return
				}
				raw, err := json.Marshal(slices.Delete(entriesOf(f), lo, hi))
				if err != nil {
					return
				}
				m[key] = raw
				if b, err := json.Marshal(m); err == nil {
					f.Observed = b
				}
			},
		})
	}
	return out
}

// observedKeys is f's observed block split by its top-level keys.
func observedKeys(f *scenario.File) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	err := json.Unmarshal(f.Observed, &m)
	return m, err
}
