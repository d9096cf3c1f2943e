package binding

import (
	"cmp"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// Result is what one evaluation decided. Every list is sorted, so equal
// snapshots give equal results whatever the order of their lists.
type Result struct {
	// Bindings holds one entry per Binding this broker answers for, sorted
	// by namespace, name and UID. Bindings another broker owns are absent.
	Bindings []Outcome
	// Memory is the memory of good generations after this evaluation.
	Memory ServedMemory
	// IgnoredProbes are probe results that counted for no Binding.
	IgnoredProbes []IgnoredProbe
	// Errors are objects the engine could not use at all (missing
	// metadata, a repeated UID or name), sorted by kind, namespace, name,
	// UID and problem.
	Errors []ObjectError
}

// Outcome is what one reconcile decides for one Binding: the shared
// conditions.Outcome (identity, Conditions, Owned, Write and Skip,
// Finalizer, Retry) and the Binding's whole Status, with where it is
// served and the causes for the log.
//
// Write is the whole answer to "write now?" for a host that spaces no
// writes: it is false for a stale snapshot (Skip Stale), an unchanged
// status (Unchanged), the ConfigMap route (ConfigMapRoute) and a standby
// (NotLeader), tested in that order. A broker that runs the writer's
// timing passes the outcome to policy.Limits.DecideOutcome, whose
// Verdict keeps these answers and may hold a due write (Skip Held,
// RetryAt).
// A Binding has no finalizer and Evaluate asks for no retry.
type Outcome struct {
	conditions.Outcome
	// Status is the Binding's status after this evaluation: Conditions.
	Status akv1.BindingStatus
	// Served reports that the broker runs some generation of the Binding;
	// ServedGeneration is that generation (0 when not served).
	Served           bool
	ServedGeneration int64
	// Causes are what the log needs and the status must not show: raw
	// probe errors, names and problems from other namespaces.
	Causes []Cause
	// Provenance holds, with Explain, one entry per condition in
	// Conditions, in the same order: the rule that decided it and the raw
	// evidence. Like Causes it is for logs and tools, never a status.
	// Evaluate leaves it nil.
	Provenance []conditions.Provenance `json:",omitempty"`
	// Errors are problems with the object as input (not with its spec).
	Errors []string
}

// Cause is one line for the operator's log behind a condition.
type Cause struct {
	// Type and Reason are the condition the cause explains.
	Type   string
	Reason string
	// Detail is the raw cause, cut to MaxCauseBytes. It may name objects
	// of other namespaces, hosts and platform errors: never put it in a
	// status.
	Detail string
}

// MaxCauseBytes bounds a Cause's Detail, so a huge error text cannot
// flood the log.
const MaxCauseBytes = 4096

// IgnoredProbe is a probe result that counted for nothing, and why.
type IgnoredProbe struct {
	UID        types.UID
	Namespace  string
	Name       string
	Generation int64
	Why        string
}

// ObjectError is an object the engine had to leave out, and why.
type ObjectError struct {
	Kind      string
	Namespace string
	Name      string
	UID       types.UID
	Problem   string
}

// result decides every Binding and lays out the outcomes and the next
// memory in their sorted order.
func (e *evaluator) result(each func(int, Outcome)) Result {
	s, ix, sc := e.s, e.ix, e.sc
	var res Result
	// The memory comes out sorted by kind (AgentBackend, Binding,
	// ChatConnection), then namespace, name and UID, and the results by
	// namespace, name and UID: walking positions sorted that way builds
	// both in order, sorting small integers rather than large values.
	mem := sc.memoryBuffer(s.Served.Objects, len(s.Bindings)+len(s.Backends)+len(s.Connections))
	sc.backendOrder, _ = sortedPositions(sc.backendOrder, len(s.Backends), sc.sameIDs, func(i int) (string, string, string) {
		o := &s.Backends[i]
		return o.Namespace, o.Name, string(o.UID)
	})
	for _, i := range sc.backendOrder {
		if info := &ix.backendList[i]; info.obj != nil && info.running != nil {
			mem = append(mem, runningMemory(akv1.KindAgentBackend, &info.obj.ObjectMeta, info.runningGen, info.running, nil))
		}
	}
	var orderKept bool
	sc.bindingOrder, orderKept = sortedPositions(sc.bindingOrder, len(s.Bindings), sc.sameIDs, func(i int) (string, string, string) {
		o := &s.Bindings[i]
		return o.Namespace, o.Name, string(o.UID)
	})
	order := sc.bindingOrder
	if each == nil {
		res.Bindings, mem = e.collect(order, orderKept, mem)
	} else {
		// Handed on in sorted order, each as it is decided: nothing is
		// held per Binding beyond its memory entry.
		var br Outcome
		for _, i := range order {
			if !ix.bindingOK[i] {
				continue
			}
			if m, owned := e.decide(int(i), &br); owned {
				if e.rec != nil {
					e.explain(int(i), &br)
				}
				if m.spec != nil {
					mem = append(mem, bindingMemory(&s.Bindings[i], m.gen, m.spec))
				}
				each(int(i), br)
			}
		}
	}
	sc.connOrder, _ = sortedPositions(sc.connOrder, len(s.Connections), sc.sameIDs, func(i int) (string, string, string) {
		o := &s.Connections[i]
		return o.Namespace, o.Name, string(o.UID)
	})
	for _, i := range sc.connOrder {
		if info := &ix.connList[i]; info.obj != nil && info.running != nil {
			mem = append(mem, runningMemory(akv1.KindChatConnection, &info.obj.ObjectMeta, info.runningGen, nil, info.running))
		}
	}
	// Entries past the end, from a longer memory before, would keep
	// specs alive.
	clear(mem[len(mem):cap(mem)])
	res.Memory.Objects = mem
	res.IgnoredProbes = e.probes.ignored(s)
	res.Errors = orNil(ix.errors)
	sortResult(&res)
	return res
}

// collect decides the Bindings in input order, their data read
// sequentially (in sorted order a large snapshot is read all over, which
// made Evaluate 15% slower at 100,000 Bindings), and puts each outcome
// at its sorted rank; holes left by Bindings of other brokers are closed
// afterwards. It returns the outcomes and mem with the Bindings' memory
// entries appended.
func (e *evaluator) collect(order []int32, orderKept bool, mem []Served) ([]Outcome, []Served) {
	s, ix, sc := e.s, e.ix, e.sc
	// The ranks are the order's inverse: an order kept as it was keeps
	// the ranks worked out from it.
	rank := sc.rank
	if !orderKept || len(rank) != len(order) {
		rank = reuse(rank, len(s.Bindings))
		for r, i := range order {
			rank[i] = int32(r)
		}
	}
	out := sc.outcomes
	if out == nil || cap(out) < len(s.Bindings) {
		out = make([]Outcome, len(s.Bindings))
	}
	out = out[:len(s.Bindings)]
	kept := reuse(sc.kept, len(s.Bindings))
	// A Binding's memory entry is its identity (read again from its
	// outcome) and what it serves: only the latter is kept per rank.
	bmem := reuse(sc.bmem, len(s.Bindings))
	sc.rank, sc.kept, sc.bmem = rank, kept, bmem
	for i := range s.Bindings {
		if !ix.bindingOK[i] {
			continue
		}
		r := rank[i]
		m, owned := e.decide(i, &out[r])
		if !owned {
			continue
		}
		if e.rec != nil {
			e.explain(i, &out[r])
		}
		kept[r], bmem[r] = true, m
	}
	n := 0
	for r := range out {
		if !kept[r] {
			continue
		}
		if n != r {
			out[n] = out[r]
		}
		// The identity is read from the outcome, which carries the
		// Binding's, where it lies in rank order, rather than from the
		// Binding, which lies elsewhere in input order.
		if m := bmem[r]; m.spec != nil {
			o := &out[n]
			mem = append(mem, Served{Kind: akv1.KindBinding, Namespace: o.Namespace, Name: o.Name, UID: o.UID, Generation: m.gen, Binding: m.spec})
		}
		n++
	}
	clear(out[n:cap(out)])
	sc.outcomes = out
	return out[:n], mem
}

// bindingMemory is the memory entry of a Binding that serves spec at gen.
func bindingMemory(o *akv1.Binding, gen int64, spec *akv1.BindingSpec) Served {
	return Served{Kind: akv1.KindBinding, Namespace: o.Namespace, Name: o.Name, UID: o.UID, Generation: gen, Binding: spec}
}

// runningMemory is the memory entry of an AgentBackend or a
// ChatConnection whose spec runs (backend or conn, the other nil), at
// gen. The memory comes out in the order the objects are walked in
// (namespace, name, UID), so result walks them in that order.
func runningMemory(kind string, m *metav1.ObjectMeta, gen int64, backend *akv1.AgentBackendSpec, conn *akv1.ChatConnectionSpec) Served {
	return Served{Kind: kind, Namespace: m.Namespace, Name: m.Name, UID: m.UID, Generation: gen, Backend: backend, Connection: conn}
}

// sortedPositions returns 0..n-1 ordered by the (namespace, name, uid)
// that id gives for each position, in prev's array when it has room.
// When prev already holds n positions in that order, as it does when
// the objects are those of the last evaluation, it is returned as it is,
// for one comparison per position instead of a sort; with same set (the
// identities at every position are the last evaluation's, which made
// prev), not even that. kept reports that prev is returned as it was.
// Positions with equal keys are of objects left out as duplicates, so
// which comes first does not show.
func sortedPositions(prev []int32, n int, same bool, id func(int) (string, string, string)) (order []int32, kept bool) {
	compare := func(a, b int32) int {
		ans, an, au := id(int(a))
		bns, bn, bu := id(int(b))
		return cmp.Or(cmp.Compare(ans, bns), cmp.Compare(an, bn), cmp.Compare(au, bu))
	}
	if len(prev) == n && (same || slices.IsSortedFunc(prev, compare)) {
		return prev, true
	}
	out := prev[:0]
	if cap(out) < n {
		out = make([]int32, 0, n)
	}
	for i := range n {
		out = append(out, int32(i))
	}
	slices.SortFunc(out, compare)
	return out, false
}

// sortResult orders the lists evaluate does not build in order.
func sortResult(r *Result) {
	slices.SortFunc(r.IgnoredProbes, func(a, b IgnoredProbe) int {
		return cmp.Or(cmp.Compare(a.UID, b.UID), cmp.Compare(a.Generation, b.Generation),
			cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name), cmp.Compare(a.Why, b.Why))
	})
	slices.SortFunc(r.Errors, func(a, b ObjectError) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name),
			cmp.Compare(a.UID, b.UID), cmp.Compare(a.Problem, b.Problem))
	})
}
