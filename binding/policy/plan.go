package policy

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/types"
)

// Target is one Binding a pass may probe, as the engine last evaluated it.
type Target struct {
	// Namespace, Name and UID identify the Binding; probe results count
	// for the UID only.
	Namespace string
	Name      string
	UID       types.UID
	// Generation is the generation the broker serves; the pass's probe
	// conditions will carry it.
	Generation int64
	// Served reports that this broker serves the Binding (it is accepted,
	// or keeps an earlier good generation, and its connection is ours).
	// Only served Bindings are probed.
	Served bool
}

// Plan is one pass: which Bindings are probed, in which order, and how
// many at once.
type Plan struct {
	// Targets are the Bindings of the pass in the order their probes start.
	Targets []Target
	// AtOnce is how many Bindings are probed at the same time; each takes
	// ProbesPerBinding probe slots.
	AtOnce int
	// ProbeTimeout bounds each probe.
	ProbeTimeout time.Duration
}

// Plan builds the pass over targets: the served ones with a UID, each
// (namespace, name, UID) once at the highest generation listed, ordered by
// namespace, name, then UID, so the plan is the same whatever order the targets come in.
// The probes of the first AtOnce Bindings start together; each later
// Binding starts when a Binding before it has both its probes ended.
func (l Limits) Plan(targets []Target) Plan {
	out := make([]Target, 0, len(targets))
	for _, t := range targets {
		if t.Served && t.UID != "" {
			out = append(out, t)
		}
	}
	// binding.Result lists Bindings in this order already: checking costs
	// one linear scan and saves the sort, the plan's only superlinear step.
	if !slices.IsSortedFunc(out, compareTargets) {
		slices.SortFunc(out, compareTargets)
	}
	// The same UID twice is a host listing a Binding twice; probing it
	// twice would waste slots, so the first (highest generation) stays.
	out = slices.CompactFunc(out, func(a, b Target) bool {
		return a.UID == b.UID && a.Namespace == b.Namespace && a.Name == b.Name
	})
	return Plan{Targets: out, AtOnce: l.BindingsAtOnce(), ProbeTimeout: l.ProbeTimeout}
}

// MaxDuration is the longest the pass can take: ceil(len/AtOnce) waves of
// at most ProbeTimeout each. A Binding slot is freed only when both its
// probes end, each within ProbeTimeout, so by (k-1)×ProbeTimeout every
// slot has started at least k Bindings and the bound holds whatever the
// mix of fast and slow backends.
func (p Plan) MaxDuration() time.Duration {
	return passBound(len(p.Targets), p.AtOnce, p.ProbeTimeout)
}

// passBound is ceil(n/atOnce) waves of at most timeout each; 0 for no
// Bindings. Plan.MaxDuration and Limits.MaxPassDuration both are it.
func passBound(n, atOnce int, timeout time.Duration) time.Duration {
	if n <= 0 {
		return 0
	}
	k := max(atOnce, 1)
	return time.Duration((n+k-1)/k) * max(timeout, 0)
}

// compareTargets orders targets by namespace, name, UID, then the higher
// generation first. It returns at the first difference instead of using
// cmp.Or, which would evaluate every comparison: the sort is the cost of
// a plan over many Bindings.
func compareTargets(a, b Target) int {
	if c := strings.Compare(a.Namespace, b.Namespace); c != 0 {
		return c
	}
	if c := strings.Compare(a.Name, b.Name); c != 0 {
		return c
	}
	if c := strings.Compare(string(a.UID), string(b.UID)); c != 0 {
		return c
	}
	return cmp.Compare(b.Generation, a.Generation)
}
