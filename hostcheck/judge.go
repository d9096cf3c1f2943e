package hostcheck

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
)

// RuleWriteAnswer judges every status write on its own, not only the
// state the store settles in: a wrong value written along the way, and
// later overwritten, is still a wrong value a reader saw.
var RuleWriteAnswer = Rule{"WriteAnswer", "every status write is the engine's answer for what the host could read when it computed it: our conditions, lastTransitionTime included, and the status's other fields"}

// PassView is what one reconcile of a host could read: the replica's
// cache as the reconcile began, what the system had observed, the
// virtual clock and the incarnation's start. Memory is what the
// system's Pass returned as Memory for the incarnation's previous
// reconcile, nil for its first; Earlier are the incarnation's memories
// before it, newest first, a few (a host that skips passes holds one of
// them). Judged names the objects the reconcile
// wrote, the only ones Pass must answer for; with none, only Memory is
// wanted.
type PassView struct {
	Objects        []*unstructured.Unstructured
	Observed       any
	Now, StartedAt time.Time
	Memory         any
	Earlier        []any
	Judged         []ObjectKey
}

// PassAnswer is the engine's answer for one pass over a PassView.
type PassAnswer struct {
	// Writes holds, for each object of a Status kind, every status a
	// write computed from the view may leave in the store; more than one
	// where the answer depends on what the harness cannot see (a host's
	// memory of its earlier passes, whether its prober has listed). An
	// object left out is not judged.
	Writes map[ObjectKey][]Written
	// Memory is what a host that evaluated the view keeps for its next
	// pass (a broker's memory of served generations), handed back as
	// PassView.Memory.
	Memory any
}

// Written is one status a write may leave.
type Written struct {
	// Conditions are our conditions, compared by type, lastTransitionTime
	// included at whole seconds (the precision the API server stores).
	Conditions []metav1.Condition
	// Status is the status's fields besides its conditions, as JSON
	// decodes them; nil leaves them unjudged.
	Status map[string]any
}

// judgeState is what the harness keeps to judge each write: the writes
// of the running reconcile by object, and each replica's memory of its
// incarnation's passes.
type judgeState struct {
	// pending holds the last status write of each object in the running
	// reconcile, judged when the reconcile returns: a write plan of
	// several requests (a removal, then the apply) is judged by where
	// it ends.
	pending map[ObjectKey]pendingWrite
	// mem is each replica's Memory, for the incarnation it was made in.
	mem [2]passMemory
}

type pendingWrite struct {
	w     string
	after *unstructured.Unstructured
}

type passMemory struct {
	incarnation int
	mem         any
	earlier     []any
}

// keptMemories is how many earlier memories a PassView carries.
const keptMemories = 4

// keep makes next the newest memory.
func (m *passMemory) keep(next any) {
	if reflect.DeepEqual(next, m.mem) {
		return
	}
	if m.mem != nil {
		m.earlier = append([]any{m.mem}, m.earlier[:min(len(m.earlier), keptMemories-1)]...)
	}
	m.mem = next
}

// beginPass readies the judge for a reconcile of p.
func (r *run) beginPass(p *replica) {
	r.judging.pending = nil
	if m := &r.judging.mem[p.id]; m.incarnation != p.incarnation {
		*m = passMemory{incarnation: p.incarnation}
	}
}

// noteWrite records a status write of ours that reached the store; a
// failed one (refused, or answered with an error) drops what was noted
// of the object, as its plan did not finish.
func (r *run) noteWrite(w write, after *unstructured.Unstructured, ok bool) {
	if r.world.Pass == nil {
		return
	}
	if !ok || after == nil {
		delete(r.judging.pending, w.key)
		return
	}
	if r.judging.pending == nil {
		r.judging.pending = map[ObjectKey]pendingWrite{}
	}
	r.judging.pending[w.key] = pendingWrite{w: w.String(), after: after}
}

// endPass judges the writes of the reconcile of p that just returned
// against the engine's answer for p's view, and keeps the memory the
// pass leaves.
func (r *run) endPass(p *replica) {
	if r.world.Pass == nil || r.bad != nil {
		return
	}
	m := &r.judging.mem[p.id]
	keys := make([]ObjectKey, 0, len(r.judging.pending))
	for k := range r.judging.pending {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b ObjectKey) int { return strings.Compare(a.String(), b.String()) })
	ans, err := r.world.Pass(PassView{Objects: p.cached(), Observed: r.observed(), Now: r.now, StartedAt: p.startedAt, Memory: m.mem, Earlier: m.earlier, Judged: keys})
	if err != nil {
		r.violate(RuleWriteAnswer, "", "the engine refused the host's view: "+err.Error(), "")
		return
	}
	m.keep(ans.Memory)
	for _, k := range keys {
		pw := r.judging.pending[k]
		want, ok := ans.Writes[k]
		if !ok {
			continue
		}
		got := ourConditions(pw.after, r.sys.ours)
		status := otherStatus(pw.after)
		if slices.ContainsFunc(want, func(x Written) bool { return sameWritten(got, status, x) }) {
			continue
		}
		r.violate(RuleWriteAnswer, pw.w, fmt.Sprintf("%s was written as %s; the engine answers otherwise for what replica %d could read", k, formatWritten(got, status, want), p.id), formatAnswers(want))
		return
	}
}

// otherStatus is the status's fields besides conditions.
func otherStatus(u *unstructured.Unstructured) map[string]any {
	s, _, _ := unstructured.NestedMap(u.Object, "status")
	delete(s, "conditions")
	return s
}

// sameWritten reports whether a stored status is the written one x.
func sameWritten(got []metav1.Condition, status map[string]any, x Written) bool {
	if len(got) != len(x.Conditions) {
		return false
	}
	for _, c := range x.Conditions {
		g := find(got, c.Type)
		if g == nil || g.Status != c.Status || g.Reason != c.Reason || g.Message != c.Message || g.ObservedGeneration != c.ObservedGeneration ||
			!g.LastTransitionTime.UTC().Truncate(time.Second).Equal(c.LastTransitionTime.UTC().Truncate(time.Second)) {
			return false
		}
	}
	if x.Status == nil {
		return true
	}
	return sameFields(status, x.Status)
}

// sameFields compares two status maps as JSON writes them (a number
// decoded as an integer or as a float alike), an absent map and an
// empty one alike.
func sameFields(a, b map[string]any) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	x, errA := json.Marshal(a)
	y, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(x) == string(y)
}

func formatWritten(got []metav1.Condition, status map[string]any, want []Written) string {
	s := formatTimedConditions(got)
	if len(want) > 0 && want[0].Status != nil && !sameFields(status, want[0].Status) {
		s += fmt.Sprintf(" with status fields %v", status)
	}
	return s
}

func formatAnswers(want []Written) string {
	parts := make([]string, 0, len(want))
	for _, x := range want {
		s := formatTimedConditions(x.Conditions)
		if x.Status != nil {
			s += fmt.Sprintf(" with status fields %v", x.Status)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " or ")
}

// formatTimedConditions is formatConditions with each condition's
// lastTransitionTime.
func formatTimedConditions(cs []metav1.Condition) string {
	if len(cs) == 0 {
		return "[]"
	}
	parts := make([]string, 0, len(cs))
	for _, c := range cs {
		parts = append(parts, fmt.Sprintf("%s=%s/%s@%d since %s %q", c.Type, c.Status, c.Reason, c.ObservedGeneration,
			c.LastTransitionTime.UTC().Format("15:04:05"), c.Message))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// addWritten appends x to the answers of k unless an equal one is there.
func addWritten(out map[ObjectKey][]Written, k ObjectKey, x Written) {
	if slices.ContainsFunc(out[k], func(y Written) bool { return sameWritten(y.Conditions, y.Status, x) }) {
		return
	}
	out[k] = append(out[k], x)
}

func objectKey(kind, namespace, name string) ObjectKey {
	return ObjectKey{Kind: kind, NamespacedName: types.NamespacedName{Namespace: namespace, Name: name}}
}
