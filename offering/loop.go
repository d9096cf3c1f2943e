package offering

import (
	"fmt"
	"strings"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/redact"
)

// loops describes, for every Offering from which a loop is reachable,
// the walk the requirement check takes from it.
//
// The walk is a depth-first search in spec order that stops when it
// re-enters an Offering on its current path. At each Offering the
// search skips requirements that reach no loop (their subtrees finish
// without finding one) and descends into the first that does, or stops
// there if that one is already on the path. So the walk from v is v,
// next(v), next(next(v)), ... until an Offering repeats, where next(v) is
// v's first requirement that reaches a loop: it depends on v alone, not
// on where the walk started. The walks therefore share their tails, and
// one pass over the next-links gives every Offering's distance to the
// loop it ends in (entry) without a walk per Offering.
type loops struct {
	next  []int32 // first requirement reaching a loop; -1 when v reaches none
	dist  []int32 // steps from v to entry[v]
	entry []int32 // first Offering on a next-cycle that the walk from v meets
	prev  []int32 // on a next-cycle: the Offering before it on that cycle
	size  []int32 // on a next-cycle: the cycle's length
}

func (g graph) loops(reach []bool) loops {
	n := len(reach)
	l := loops{next: make([]int32, n), dist: make([]int32, n), entry: make([]int32, n),
		prev: make([]int32, n), size: make([]int32, n)}
	for v := range n {
		l.next[v], l.entry[v], l.prev[v] = -1, -1, -1
		if !reach[v] {
			continue
		}
		for _, w := range g.out(int32(v)) {
			if reach[w] {
				l.next[v] = w
				break
			}
		}
	}
	const (
		fresh = iota
		walking
		done
	)
	state := make([]uint8, n)
	var path []int32
	for s := range n {
		if l.next[s] < 0 || state[s] != fresh {
			continue
		}
		path = path[:0]
		v := int32(s)
		for state[v] == fresh {
			state[v] = walking
			path = append(path, v)
			v = l.next[v]
		}
		k := len(path)
		if state[v] == walking {
			// v closes a new cycle: path[i:] with path[i] == v.
			i := len(path) - 1
			for path[i] != v {
				i--
			}
			cyc := path[i:]
			for j, u := range cyc {
				l.entry[u], l.dist[u] = u, 0
				l.prev[u] = cyc[(j+len(cyc)-1)%len(cyc)]
				l.size[u] = int32(len(cyc))
				state[u] = done
			}
			k = i
		}
		for j := k - 1; j >= 0; j-- {
			u := path[j]
			w := l.next[u]
			l.entry[u], l.dist[u] = l.entry[w], l.dist[w]+1
			state[u] = done
		}
	}
	return l
}

// Loop paths longer than maxLoopElems are shown as their first
// loopHeadElems Offerings, a count of the ones left out, and the
// Offering the walk re-enters, so the message stays short.
const (
	maxLoopElems  = 12
	loopHeadElems = 10
)

// hiddenOffering stands in for an Offering whose identity is another
// namespace's text that this Offering's namespace never wrote down.
const hiddenOffering = "(an offering in another namespace)"

// loopMessage renders the walk from v: its Offerings in requirement
// order, ending with the one it re-enters. An Offering outside v's
// namespace is named only when an Offering of v's namespace requires it
// (the name is then already written in that namespace); otherwise it is
// hidden, so the message never carries another tenant's names. The
// re-entered Offering at the end is shown as it was where the walk first
// met it.
func (l loops) loopMessage(offs []finopsv1.Offering, v int32) string {
	ns := offs[v].Namespace
	e := l.entry[v]
	total := l.dist[v] + l.size[e] + 1 // the re-entered Offering is shown twice
	show := func(prev, u int32) string {
		o := &offs[u]
		if u == v {
			return o.Namespace + "/" + o.Name // the Offering's own name
		}
		if o.Namespace == ns || prev >= 0 && offs[prev].Namespace == ns {
			return redact.Name(o.Namespace + "/" + o.Name) // a name the reader may see, as written
		}
		return hiddenOffering
	}
	var b strings.Builder
	b.WriteString("requirement loop: ")
	head := total
	if total > maxLoopElems {
		head = loopHeadElems
	}
	// The re-entered Offering is named at the end when it was named where
	// the walk first met it, or when the Offering before it requires it
	// from v's namespace.
	var entryShown string
	prev, u := int32(-1), v
	for i := int32(0); i < head; i++ {
		if i > 0 {
			b.WriteString(" -> ")
		}
		s := show(prev, u)
		if u == e && entryShown == "" {
			entryShown = s
		} else if u == e && s == hiddenOffering {
			s = entryShown
		}
		b.WriteString(s)
		prev, u = u, l.next[u]
	}
	if head < total {
		last := show(l.prev[e], e)
		if last == hiddenOffering && entryShown != "" {
			last = entryShown
		}
		fmt.Fprintf(&b, " -> … (%d more) … -> %s", total-head-1, last)
	}
	return b.String()
}
