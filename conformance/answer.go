package conformance

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/manifest"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

// Object is what an implementation says one object's status is once a
// reconcile of the snapshot is done: the conditions, and the other status
// fields as a JSON object (the "conditions" key left out). It is one
// entry of an answer line of the conform protocol (docs/conform.md).
type Object struct {
	// Kind, Namespace and Name identify the object; Namespace is empty
	// for cluster-scoped kinds.
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	// Conditions are the object's conditions, compared by type.
	Conditions []metav1.Condition `json:"conditions"`
	// Status holds the status fields other than conditions; absent, null
	// and {} mean the same.
	Status json.RawMessage `json:"status,omitempty"`
	// Write, RemoveFinalizer and RetryAt are what the host does after
	// this reconcile: write the status now, remove its finalizer from
	// the object, and retry a write it holds back at that instant (nil:
	// no retry). They are compared only when the implementation declares
	// them (CompareOptions.Keys); the engine always fills them.
	// RetryAt is an exact instant, written and compared to the
	// nanosecond (RFC 3339 with the fraction when there is one).
	Write           *bool      `json:"write,omitempty"`
	RemoveFinalizer *bool      `json:"removeFinalizer,omitempty"`
	RetryAt         *time.Time `json:"retryAt,omitempty"`
	// Absent lists the condition keys the API server requires that the
	// answer line left out, as "conditions[i].key"; DecodeReply sets it
	// and Validate reports it. A Go Evaluator leaves it empty.
	Absent []string `json:"-"`
}

// ID is "Kind namespace/name", or "Kind name" when cluster-scoped.
func (o Object) ID() string {
	return o.Kind + " " + manifest.JoinName(o.Namespace, o.Name)
}

// Evaluator is an implementation under test: given a scenario (one
// snapshot of one system; its Expect is always empty), it returns one
// Object per object whose status it writes. An error means it could not
// answer; the difference is reported like a disagreement.
type Evaluator func(*scenario.File) ([]Object, error)

// Reference is this engine as an Evaluator of sys: the answer every
// other implementation is compared with. It runs sys on the file and
// answers for the objects of sys's status kinds (Kind.Status), sorted by
// kind, namespace and name: their conditions as the runner reports them,
// what the object carries once the reconcile is done (the computed list
// where a write is made now, otherwise the list the object already had,
// exactly as it stands, read at whole seconds), their other status
// fields, and the decision keys from the outcome (write, removeFinalizer,
// retryAt). A file of another system is refused.
func Reference(sys *system.System) Evaluator {
	return func(f *scenario.File) ([]Object, error) {
		if f.System != sys.Name {
			return nil, fmt.Errorf("the scenario is of system %q; this reference is of %q", f.System, sys.Name)
		}
		outs, err := sys.Run(f, false)
		if err != nil {
			return nil, err
		}
		return fromOutcomes(sys, outs)
	}
}

// fromOutcomes is the one place the engine's scenario outcomes become
// answers; when the outcome shape changes, only this adapter moves. The
// objects answered are those of sys's status kinds. The conditions are
// taken as the runner reports them: what the object carries after the
// reconcile, never the computed list of a write that is not made. The
// host writes now when the outcome says a write is due, unless a status
// writer decided (Outcome.Decision): then only on its "write". It
// removes the finalizer on conditions.FinalizerRemove and retries at
// Outcome.RetryAt.
func fromOutcomes(sys *system.System, outs []scenario.Outcome) ([]Object, error) {
	kinds := sys.StatusKinds()
	var objs []Object
	for _, o := range outs {
		if !slices.Contains(kinds, o.Kind) {
			continue
		}
		st, err := statusFields(o.Status)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", o.Kind, o.Name, err)
		}
		conds := o.Conditions
		if conds == nil {
			conds = []metav1.Condition{}
		}
		obj := Object{Kind: o.Kind, Namespace: o.Namespace, Name: o.Name, Conditions: conds, Status: st,
			Write: ptr(writesNow(o)), RemoveFinalizer: ptr(o.Finalizer == conditions.FinalizerRemove)}
		if !o.RetryAt.IsZero() {
			at := o.RetryAt.UTC()
			obj.RetryAt = &at
		}
		objs = append(objs, obj)
	}
	sortObjects(objs)
	return objs, nil
}

// writesNow is an answer's write: the outcome's, unless a status writer
// decided (Outcome.Decision), and then only on its "write".
func writesNow(o scenario.Outcome) bool {
	if o.Decision != "" {
		return o.Decision == "write"
	}
	return o.Write
}

// statusFields drops the conditions key from a status object; it returns
// nil when nothing else is left.
func statusFields(raw json.RawMessage) (json.RawMessage, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("status is not an object: %w", err)
	}
	delete(m, "conditions")
	if len(m) == 0 {
		return nil, nil
	}
	return json.Marshal(m)
}

func sortObjects(objs []Object) {
	slices.SortFunc(objs, func(a, b Object) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
}

func ptr[T any](v T) *T { return &v }
