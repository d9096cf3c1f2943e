package binding

import "k8s.io/apimachinery/pkg/types"

// outcomeTable holds the current outcome of each Binding: the outcomes
// side by side in one list, found by UID through a map of positions. A
// map of the outcomes themselves held about half as much again as the
// outcomes, for its empty slots of their full size.
type outcomeTable struct {
	at   map[types.UID]int32
	list []Outcome
}

func newOutcomeTable(n int) outcomeTable {
	return outcomeTable{at: make(map[types.UID]int32, n), list: make([]Outcome, 0, n)}
}

func (t *outcomeTable) has(uid types.UID) bool {
	_, ok := t.at[uid]
	return ok
}

// set takes o as the outcome of its UID.
func (t *outcomeTable) set(o Outcome) {
	if i, ok := t.at[o.UID]; ok {
		t.list[i] = o
		return
	}
	t.at[o.UID] = int32(len(t.list))
	t.list = append(t.list, o)
}

// drop forgets the outcome of uid; the last outcome takes its place.
func (t *outcomeTable) drop(uid types.UID) {
	i, ok := t.at[uid]
	if !ok {
		return
	}
	delete(t.at, uid)
	last := len(t.list) - 1
	if int(i) != last {
		t.list[i] = t.list[last]
		t.at[t.list[i].UID] = i
	}
	t.list[last] = Outcome{}
	t.list = t.list[:last]
}
