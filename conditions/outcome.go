package conditions

import (
	"cmp"
	"errors"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stypes "k8s.io/apimachinery/pkg/types"
)

// Outcome is what one evaluation decided for one object, in the same
// words for every kind. Each kind's outcome type embeds it and adds its
// Status (and, for some kinds, a few fields of its own), so a host reads
// o.Write, o.Owned or o.Finalizer the same way whatever the kind.
//
// The fields, in the order a host uses them:
//
//   - Kind, Namespace, Name, UID, Generation: the object, as the snapshot
//     held it; Generation is the metadata.generation the conditions were
//     computed for.
//   - Conditions: the computed list, ours in vocabulary order followed by
//     other writers' conditions as the object holds them: what a write
//     carries, and what a read after it shows. When no write is made
//     (Write false) the object keeps its own list, exactly as it stands;
//     that list differs from Conditions only where a write is due but not
//     made here (Skip ConfigMapRoute, NotLeader, Held) or in the order of
//     the same conditions, which is never a change.
//   - Owned: the conditions of this controller's own types only, the ones
//     a server-side apply under its field manager must carry. It never
//     holds another writer's type, so applying it can never take over, or
//     drop, another controller's condition.
//   - Write and Skip: Write is true when the status is to be written now;
//     otherwise Skip says why not. Exactly one of them is set.
//   - Finalizer: add or remove the kind's finalizer, or leave it alone.
//   - Retry and RetryAt: Retry asks the host to reconcile the object again
//     without waiting for a watch event, not before RetryAt (an instant;
//     the engine reads no clock, so it never returns a duration).
type Outcome struct {
	// Kind is the object's kind, as in its manifest.
	Kind string
	// Namespace and Name name the object.
	Namespace string
	Name      string
	// UID is the object's metadata.uid.
	UID k8stypes.UID
	// Generation is the object's metadata.generation.
	Generation int64
	// Conditions is the computed condition list: what is written when
	// Write is true. With Write false the object keeps its own list.
	Conditions []metav1.Condition
	// Owned is the subset of Conditions of this controller's own types,
	// in the same order: what a server-side apply carries.
	Owned []metav1.Condition
	// Write reports that the status is to be written now.
	Write bool
	// Skip says why no write is made; SkipNone when Write is true.
	Skip Skip
	// Finalizer is what to do with the kind's finalizer.
	Finalizer FinalizerAction
	// Retry asks for another reconcile, not before RetryAt, without
	// waiting for a watch event.
	Retry bool
	// RetryAt is the earliest instant of that reconcile; zero when Retry
	// is false.
	RetryAt time.Time
}

// RetryDelay is the shortest wait before a retry. A transient failure
// (a read that failed) is retried at the evaluation's Now plus RetryDelay,
// and RequeueAfter never answers less for a retry whose instant has come:
// that is still a retry, and a host that passed 0 to controller-runtime
// would never be called again, since there 0 means "no requeue". A host
// that lengthens the delay on repeated failures does so on top of it.
const RetryDelay = time.Second

// RequeueAfter answers how long a host waits, counted from now, before
// it reconciles the object again: 0 when the outcome asks for no retry,
// otherwise RetryAt minus now, and never less than RetryDelay. It is what
// a controller-runtime reconciler returns as Result.RequeueAfter.
func (o *Outcome) RequeueAfter(now time.Time) time.Duration {
	return requeueAfter(o.Retry, o.RetryAt, now)
}

// requeueAfter is 0 when retry is false, otherwise at minus now and never
// less than RetryDelay.
func requeueAfter(retry bool, at, now time.Time) time.Duration {
	if !retry {
		return 0
	}
	return max(at.Sub(now), RetryDelay)
}

// Skip says why an outcome writes no status. The set is closed; an
// evaluator tests the values in this order and reports the first that
// holds:
//
//	SkipNone            ""                a write is due (Write is true)
//	SkipStale           "Stale"           a condition of ours describes a newer
//	                                      generation than the snapshot holds
//	SkipUnchanged       "Unchanged"       the object already holds the status
//	SkipConfigMapRoute  "ConfigMapRoute"  the broker is configured from a
//	                                      ConfigMap and writes no status
//	SkipNotLeader       "NotLeader"       this replica does not hold the lease
//	SkipHeld            "Held"            the writer's timing holds a due write
//	SkipNeverWritten    "NeverWritten"    the kind's status is not written by
//	                                      this controller at all
type Skip string

// The reasons not to write, in the order of the table above.
const (
	// SkipNone: a write is due (Write is true).
	SkipNone Skip = ""
	// SkipStale: a condition of ours on the object describes a newer
	// generation than the snapshot holds; the snapshot lags the API
	// server and nothing may be written until it catches up. Conditions
	// is the object's list as it stands.
	SkipStale Skip = "Stale"
	// SkipUnchanged: the object already holds the computed status.
	SkipUnchanged Skip = "Unchanged"
	// SkipConfigMapRoute: the broker reads its configuration from a
	// ConfigMap (Broker.ConfigSource) and writes no status at all.
	SkipConfigMapRoute Skip = "ConfigMapRoute"
	// SkipNotLeader: this replica does not hold the lease; it computes
	// and never writes.
	SkipNotLeader Skip = "NotLeader"
	// SkipHeld: the writer's timing (a write gap, a backoff after failed
	// writes, a fight over the status) holds a due write until RetryAt.
	SkipHeld Skip = "Held"
	// SkipNeverWritten: the kind's status is not written by this
	// controller at all (a FinOpsProvider's, a CostJob's).
	SkipNeverWritten Skip = "NeverWritten"
)

// Skips lists every reason not to write, SkipNone left out, in the order
// of the table above. The slice is new on each call.
func Skips() []Skip {
	return []Skip{SkipStale, SkipUnchanged, SkipConfigMapRoute, SkipNotLeader, SkipHeld, SkipNeverWritten}
}

// FinalizerAction is what an outcome does with the kind's finalizer.
type FinalizerAction string

// The finalizer actions.
const (
	// FinalizerKeep leaves the finalizers as they are.
	FinalizerKeep FinalizerAction = ""
	// FinalizerAdd adds the kind's finalizer (a live object without it).
	FinalizerAdd FinalizerAction = "Add"
	// FinalizerRemove drops the kind's finalizer, in the same write as
	// the status that allows it.
	FinalizerRemove FinalizerAction = "Remove"
)

// The errors every evaluator returns for a Now no status can carry.
var (
	// ErrZeroNow is returned by every evaluator given a snapshot whose Now is
	// the zero time: a transition stamped with the year 1 would never move
	// again, so nothing is decided.
	ErrZeroNow = errors.New("Snapshot.Now is the zero time: set Snapshot.Now to the instant of the evaluation (the engine reads no clock)")

	// ErrNowUnwritable is returned by every evaluator given a snapshot whose
	// Now falls outside the years 0000 to 9999 (in UTC): a status time is
	// written in RFC 3339, which has four digits for the year, so no
	// transition stamped with such a Now could be read back.
	ErrNowUnwritable = errors.New("Snapshot.Now cannot be written as an RFC 3339 time (its year is not 0000 to 9999): set Snapshot.Now to a real time, the instant of the evaluation")
)

// CheckNow returns ErrZeroNow when now is the zero time, and
// ErrNowUnwritable, wrapped with the year, when no status could carry it.
func CheckNow(now time.Time) error {
	if now.IsZero() {
		return ErrZeroNow
	}
	if y := now.UTC().Year(); y < 0 || y > 9999 {
		return fmt.Errorf("%w; it is in the year %d", ErrNowUnwritable, y)
	}
	return nil
}

// Decide sets Write and Skip from what Merge decided and whether the
// status changed outside the conditions (changed): a stale merge writes
// nothing, a merge or status change writes, anything else is unchanged.
func (o *Outcome) Decide(m MergeResult, changed bool) {
	switch {
	case m.Stale:
		o.Write, o.Skip = false, SkipStale
	case m.Changed || changed:
		o.Write, o.Skip = true, SkipNone
	default:
		o.Write, o.Skip = false, SkipUnchanged
	}
}

// Due reports that the computed status differs from the object's and is
// not stale: a write is due, whether this replica makes it now (Write) or
// something about the writer holds it (ConfigMapRoute, NotLeader, Held).
func (o *Outcome) Due() bool {
	return o.Skip != SkipUnchanged && o.Skip != SkipStale && o.Skip != SkipNeverWritten
}

// Compare orders outcomes by kind, namespace, name and UID: the order of
// every list of outcomes an evaluator returns.
func Compare(a, b *Outcome) int {
	return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Namespace, b.Namespace),
		cmp.Compare(a.Name, b.Name), cmp.Compare(a.UID, b.UID))
}

// Owned returns the conditions of the vocabulary's types in conds, in
// their order. When they come first, as Merge writes them, the result
// shares conds' backing array (capped, so appending to it never writes
// into conds) and nothing is allocated.
func (v *Vocabulary) Owned(conds []metav1.Condition) []metav1.Condition {
	// Ours as Merge writes them, in the vocabulary's order and nothing
	// else: one walk of the vocabulary finds them all.
	t := 0
	for i := range conds {
		for t < len(v.types) && v.types[t].Name != conds[i].Type {
			t++
		}
		if t == len(v.types) {
			break
		}
		t++
		if i == len(conds)-1 {
			return conds[:len(conds):len(conds)]
		}
	}
	n := 0
	for n < len(conds) && v.Index(conds[n].Type) >= 0 {
		n++
	}
	rest := 0
	for i := n; i < len(conds); i++ {
		if v.Index(conds[i].Type) >= 0 {
			rest++
		}
	}
	if rest == 0 {
		if n == 0 {
			return nil
		}
		return conds[:n:n]
	}
	out := make([]metav1.Condition, 0, n+rest)
	for i := range conds {
		if v.Index(conds[i].Type) >= 0 {
			out = append(out, conds[i])
		}
	}
	return out
}
