package subscription

import (
	"slices"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
)

// rootState is what the walk up the parent chain found for one
// Subscription.
type rootState uint8

const (
	rootUnknown rootState = iota // parent missing or chain not walked yet
	rootKnown                    // root holds the family's root UID
	rootLoop                     // the chain re-enters itself
	rootFailed                   // reading an ancestor failed
)

// resolveRoots finds, for every node, the UID its family root has: its
// own stamp when it has one, its UID when it has no parent, otherwise its
// parent's root. The walk is iterative and memoised, so a deep chain costs
// no stack and every node is visited once, and a loop of any length ends
// in rootLoop instead of spinning.
func (e *evaluator) resolveRoots() {
	const (
		unvisited = iota
		onPath
		done
	)
	mark := make([]uint8, len(e.nodes))
	var path []int32
	for start := range e.nodes {
		if mark[start] == done {
			continue
		}
		path = path[:0]
		i := int32(start)
		var st rootState
		var root string
		for {
			n := &e.nodes[i]
			if mark[i] == done {
				st, root = n.rootState, n.root
				break
			}
			if mark[i] == onPath {
				st = rootLoop
				break
			}
			mark[i] = onPath
			path = append(path, i)
			if s := n.sub.Status.CompatibilityRoot; s != "" {
				st, root = rootKnown, s
				break
			}
			if n.sub.Spec.Parent == nil {
				st, root = rootKnown, string(n.sub.UID)
				break
			}
			if n.parentFailed {
				st = rootFailed
				break
			}
			if n.parent < 0 {
				st = rootUnknown
				break
			}
			i = n.parent
		}
		// Every node on the path shares the answer, except that a node
		// with its own stamp or no parent decided for itself.
		for k := len(path) - 1; k >= 0; k-- {
			j := path[k]
			n := &e.nodes[j]
			mark[j] = done
			if n.sub.Status.CompatibilityRoot != "" {
				n.rootState, n.root = rootKnown, n.sub.Status.CompatibilityRoot
			} else if n.sub.Spec.Parent == nil {
				n.rootState, n.root = rootKnown, string(n.sub.UID)
			} else {
				n.rootState, n.root = st, root
			}
			st, root = n.rootState, n.root
		}
	}
}

// numberTree gives every node an entry and exit number from one
// depth-first walk of the parent forest, so that the descendants of a node
// (itself included) are exactly the nodes whose entry number lies in
// [in, out). A parent loop has no root: it is numbered from one of its
// members, so the nodes hanging below the loop get exact subtrees while
// the loop members' intervals are only approximate (no interval describes
// a cycle). Loop members never pass the parent gate, so nothing depends
// on theirs.
func (e *evaluator) numberTree() {
	n := len(e.nodes)
	// Children as a compact adjacency list (counting sort by parent).
	start := make([]int32, n+1)
	for i := range e.nodes {
		if p := e.nodes[i].parent; p >= 0 {
			start[p+1]++
		}
	}
	for i := 0; i < n; i++ {
		start[i+1] += start[i]
	}
	children := make([]int32, start[n])
	fill := slices.Clone(start[:n])
	for i := range e.nodes {
		if p := e.nodes[i].parent; p >= 0 {
			children[fill[p]] = int32(i)
			fill[p]++
		}
	}
	for i := range e.nodes {
		e.nodes[i].in = -1
	}
	clock := int32(0)
	type frame struct{ node, next int32 }
	var stack []frame
	visit := func(root int32) {
		e.nodes[root].in = clock
		clock++
		stack = append(stack[:0], frame{root, start[root]})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next < start[top.node+1] {
				c := children[top.next]
				top.next++
				if e.nodes[c].in >= 0 {
					continue // only reachable twice through a loop
				}
				e.nodes[c].in = clock
				clock++
				stack = append(stack, frame{c, start[c]})
				continue
			}
			e.nodes[top.node].out = clock
			stack = stack[:len(stack)-1]
		}
	}
	for i := range e.nodes {
		if e.nodes[i].parent < 0 {
			visit(int32(i))
		}
	}
	// What is left is a parent loop and whatever hangs below it. Walk up
	// from each such node to a node seen twice, which lies on the loop,
	// and number the component from there: the loop edge back into it is
	// skipped, so the hangers get their true subtrees and each component
	// is walked once.
	seen := make([]int32, n)
	for i := range e.nodes {
		if e.nodes[i].in >= 0 {
			continue
		}
		walk := int32(i + 1)
		j := int32(i)
		for seen[j] != walk {
			seen[j] = walk
			j = e.nodes[j].parent
		}
		visit(j)
	}
}

// providerKey groups active Subscriptions by family and bound Offering.
type providerKey struct {
	root     string
	offering finopsv1.Reference
}

// indexProviders records, per family and Offering, the sorted entry
// numbers of the active Subscriptions bound to it. Only a root stamped in
// the snapshot puts a Subscription in a family: that is the index the
// operator's cache keeps.
func (e *evaluator) indexProviders() {
	e.providers = make(map[providerKey][]int32, len(e.nodes)/4)
	for i := range e.nodes {
		s := e.nodes[i].sub
		if !s.IsActive() || s.Status.CompatibilityRoot == "" {
			continue
		}
		k := providerKey{s.Status.CompatibilityRoot, s.Spec.OfferingRef}
		e.providers[k] = append(e.providers[k], e.nodes[i].in)
	}
	for _, v := range e.providers {
		slices.Sort(v)
	}
}

// covered reports whether an active Subscription of family root, bound to
// required, exists outside node i's subtree: all providers minus those
// whose entry number falls inside [in, out).
func (e *evaluator) covered(i int32, root string, required finopsv1.Reference) bool {
	list := e.providers[providerKey{root, required}]
	if len(list) == 0 {
		return false
	}
	n := &e.nodes[i]
	lo, _ := slices.BinarySearch(list, n.in)
	hi, _ := slices.BinarySearch(list, n.out)
	return len(list)-(hi-lo) > 0
}
