package offering

import (
	"cmp"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
)

// graph is the requirement graph of one snapshot in compressed form:
// the requirements of node v that name an Offering present in the
// snapshot are adj[start[v]:start[v+1]], in spec order. Entries that
// resolve to nothing cannot close a loop and are left out.
type graph struct {
	start []int32
	adj   []int32
}

// index maps each Offering identity to one node. When a snapshot holds
// two objects with one identity (only a hand-made snapshot can), the one
// with the smaller uid stands for it, so the choice does not depend on
// list order.
func index(offs []finopsv1.Offering) map[finopsv1.Reference]int32 {
	idx := make(map[finopsv1.Reference]int32, len(offs))
	for i := range offs {
		k := offs[i].Key()
		if j, dup := idx[k]; dup && cmp.Compare(offs[j].UID, offs[i].UID) <= 0 {
			continue
		}
		idx[k] = int32(i)
	}
	return idx
}

func requirements(o *finopsv1.Offering) []finopsv1.Reference {
	if o.Spec.Compatibility == nil {
		return nil
	}
	return o.Spec.Compatibility.RequiredOfferings
}

func buildGraph(offs []finopsv1.Offering, idx map[finopsv1.Reference]int32) graph {
	g := graph{start: make([]int32, len(offs)+1)}
	edges := 0
	for i := range offs {
		edges += len(requirements(&offs[i]))
	}
	g.adj = make([]int32, 0, edges)
	for i := range offs {
		for _, r := range requirements(&offs[i]) {
			if w, ok := idx[r]; ok && r.Namespace != "" && r.Name != "" {
				g.adj = append(g.adj, w)
			}
		}
		g.start[i+1] = int32(len(g.adj))
	}
	return g
}

func (g graph) out(v int32) []int32 { return g.adj[g.start[v]:g.start[v+1]] }

// loopReach marks every node from which a loop can be reached along
// requirements, itself included. It runs Tarjan's strongly connected
// components once over the whole graph with an explicit stack, so a
// chain of any length costs linear time and no recursion depth. Tarjan
// completes a component only after every component it reaches, so a
// component reaches a loop when it is one (more than one node, or a node
// requiring itself) or when an edge leaves it for a component that does.
func (g graph) loopReach() []bool {
	n := int32(len(g.start) - 1)
	const unseen = -1
	order := make([]int32, n) // discovery number, or unseen
	low := make([]int32, n)
	comp := make([]int32, n) // component id once completed, else -1
	for i := range order {
		order[i], comp[i] = unseen, -1
	}
	var compReach []bool
	stack := make([]int32, 0, 64)
	type frame struct{ v, next int32 }
	calls := make([]frame, 0, 64)
	reach := make([]bool, n)
	counter := int32(0)
	visit := func(v int32) {
		order[v], low[v] = counter, counter
		counter++
		stack = append(stack, v)
		calls = append(calls, frame{v, g.start[v]})
	}
	for s := int32(0); s < n; s++ {
		if order[s] != unseen {
			continue
		}
		visit(s)
		for len(calls) > 0 {
			top := &calls[len(calls)-1]
			v := top.v
			if top.next < g.start[v+1] {
				w := g.adj[top.next]
				top.next++
				switch {
				case order[w] == unseen:
					visit(w)
				case comp[w] < 0: // on the stack: same component
					low[v] = min(low[v], order[w])
				}
				continue
			}
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				p := calls[len(calls)-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] != order[v] {
				continue
			}
			c := int32(len(compReach))
			k := len(stack) - 1
			for stack[k] != v {
				k--
			}
			members := stack[k:]
			for _, m := range members {
				comp[m] = c
			}
			r := len(members) > 1
			for _, m := range members {
				for _, w := range g.out(m) {
					if w == m || comp[w] != c && compReach[comp[w]] {
						r = true
					}
				}
			}
			compReach = append(compReach, r)
			for _, m := range members {
				reach[m] = r
			}
			stack = stack[:k]
		}
	}
	return reach
}
