package sim

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// applyConditions is what an API server stores when a field manager
// applies its conditions (a server-side apply of status.conditions, a
// list keyed by type) over the live list. It follows the merge of
// associative lists in structured-merge-diff:
//
//   - an entry whose type the manager does not apply stays where it is,
//     unless owned reports it as the manager's own: a type the manager
//     applied before and no longer applies is removed;
//   - an applied type already in the list is replaced by the applied
//     entry; applied entries come out in the order they are applied;
//   - an applied type new to the list is placed as the merge walk meets
//     it in the applied order, after the live entries before it.
//
// So another manager's condition standing before ours stays before ours
// after every write of ours: the simulation sees what a real host sees.
// Neither list is modified.
func applyConditions(live, applied []metav1.Condition, owned func(string) bool) []metav1.Condition {
	inApplied := make(map[string]bool, len(applied))
	for _, c := range applied {
		inApplied[c.Type] = true
	}
	inLive := make(map[string]bool, len(live))
	for _, c := range live {
		inLive[c.Type] = true
	}
	// shared lists the applied types the live list has, in applied order:
	// the walk takes them in that order, skipping live ones met early.
	var shared []string
	for _, c := range applied {
		if inLive[c.Type] {
			shared = append(shared, c.Type)
		}
	}
	next := func() string {
		if len(shared) == 0 {
			return ""
		}
		t := shared[0]
		shared = shared[1:]
		return t
	}
	nextShared := next()
	merged := make(map[string]bool, len(applied))
	out := make([]metav1.Condition, 0, len(live)+len(applied))
	for l, r := 0, 0; l < len(live) || r < len(applied); {
		if l < len(live) && r < len(applied) {
			if live[l].Type == applied[r].Type {
				out = append(out, applied[r])
				merged[applied[r].Type] = true
				l++
				r++
				nextShared = next()
				continue
			}
			if inApplied[live[l].Type] && nextShared != "" && nextShared != live[l].Type {
				l++ // a shared entry, but not the one due now
				continue
			}
		}
		if l < len(live) {
			c := live[l]
			if !inApplied[c.Type] {
				if !owned(c.Type) {
					out = append(out, c)
				}
				l++
				continue
			}
			if merged[c.Type] {
				l++
			}
		}
		if r < len(applied) {
			c := applied[r]
			out = append(out, c)
			merged[c.Type] = true
			r++
			if nextShared == c.Type {
				nextShared = next()
			}
		}
	}
	return out
}
