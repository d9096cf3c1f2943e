package hostcheck_test

import (
	"cmp"
	"maps"
	"reflect"
	"slices"
	"time"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/hostcheck"
	"github.com/condengine/condengine/subscription"
)

// The planted bugs that write wrong values along the way, where the
// state the store settles in may still be right: only a judge of every
// write catches them. Numbered after the FinOps ones.
const (
	deletedKept bug = finopsWriteAsStandby + 1 + iota
	probesRelabelled
	nowFromObjects
	failedListEmpty
	targetErrorNotFound
	collectionOnce
)

func init() {
	bugNames[deletedKept] = "deleted Bindings kept in memory"
	bugNames[probesRelabelled] = "probes of an old generation relabelled to the current one"
	bugNames[nowFromObjects] = "Snapshot.Now taken from the objects' timestamps"
	bugNames[failedListEmpty] = "a failed list treated as empty (FinOps)"
	bugNames[targetErrorNotFound] = "a target read error treated as not found (FinOps)"
	bugNames[collectionOnce] = "a collection run handed to one pass only (FinOps)"
}

// judgedBug is the Binding host's reading of its inputs under one of
// the bugs above: the Bindings and probes it evaluates, and the time it
// hands the engine as Snapshot.Now (the writer policy keeps the clock).
func (h *host) judgedBug(req reconcile.Request, bindings []akv1.Binding, probes []binding.ProbeResult, now time.Time) ([]akv1.Binding, []binding.ProbeResult, time.Time) {
	switch h.bug {
	case deletedKept:
		// Adds what each listing holds to what it knew, and lets a
		// Binding the listing lacks go only when its own request comes.
		if h.known == nil {
			h.known = map[types.UID]akv1.Binding{}
		}
		for uid, b := range h.known {
			if b.Namespace == req.Namespace && b.Name == req.Name && findBinding(bindings, uid) == nil {
				delete(h.known, uid)
			}
		}
		for _, b := range bindings {
			h.known[b.UID] = b
		}
		bindings = slices.SortedFunc(maps.Values(h.known), func(a, b akv1.Binding) int {
			return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
		})
	case probesRelabelled:
		// Takes each result for the Binding's current generation, though
		// its pass began with an older one.
		probes = slices.Clone(probes)
		for i := range probes {
			if b := findBinding(bindings, probes[i].UID); b != nil {
				probes[i].Generation = b.Generation
			}
		}
	case nowFromObjects:
		// Takes the time from the newest instant the objects carry.
		var latest time.Time
		for _, b := range bindings {
			if t := b.CreationTimestamp.Time; t.After(latest) {
				latest = t
			}
			for _, c := range b.Status.Conditions {
				if t := c.LastTransitionTime.Time; t.After(latest) {
					latest = t
				}
			}
		}
		if !latest.IsZero() {
			now = latest
		}
	}
	return bindings, probes, now
}

// collection is the last collection run a pass hands to the engine:
// the collectionOnce host hands each run to the first pass after it
// arrives, and to none after.
func (h *finopsHost) collection() *subscription.Collection {
	run := hostcheck.FinOpsCollection(h.env)
	if h.bug != collectionOnce {
		return run
	}
	if run != nil && reflect.DeepEqual(run, h.handed) {
		return nil
	}
	h.handed = run
	return run
}
