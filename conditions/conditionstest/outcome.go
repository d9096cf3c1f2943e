package conditionstest

import (
	"fmt"
	"reflect"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
)

// TB is the part of testing.TB the outcome checks use; *rapid.T has it
// too.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
}

// CheckOutcomes fails t for every rule each kind's outcomes obey, whatever
// the snapshot:
//
//   - the list is sorted by kind, namespace, name and UID, with no repeat;
//   - each outcome names its kind, and Kind is the vocabulary's;
//   - Write is true exactly when Skip is SkipNone;
//   - Owned is the vocabulary's conditions of Conditions, in their order:
//     no other writer's type, none of ours missing;
//   - Retry and RetryAt agree (an instant exactly when retrying).
//
// A nil vocabulary is a kind without conditions of its own: Owned must be
// empty.
//
// outs is the list as a Result holds it: []conditions.Outcome or a
// kind's own outcome type that embeds conditions.Outcome
// ([]binding.Outcome, []offering.Outcome, ...).
func CheckOutcomes[E any](t TB, v *conditions.Vocabulary, list []E) {
	t.Helper()
	outs, err := baseOutcomes(list)
	if err != nil {
		t.Errorf("%v", err)
		return
	}
	for i, o := range outs {
		id := o.Kind + " " + o.Namespace + "/" + o.Name
		if i > 0 && conditions.Compare(outs[i-1], o) >= 0 {
			t.Errorf("%s: outcomes not sorted (or repeated) by kind, namespace, name and uid", id)
		}
		if o.Kind == "" || v != nil && o.Kind != v.Kind() {
			t.Errorf("%s: kind %q", id, o.Kind)
		}
		if o.Write != (o.Skip == conditions.SkipNone) {
			t.Errorf("%s: write=%v with skip %q", id, o.Write, o.Skip)
		}
		if o.Retry == o.RetryAt.IsZero() {
			t.Errorf("%s: retry=%v with retryAt %v", id, o.Retry, o.RetryAt)
		}
		var want []string
		if v != nil {
			for _, c := range o.Conditions {
				if v.Has(c.Type) {
					want = append(want, c.Type)
				}
			}
		}
		var got []string
		for _, c := range o.Owned {
			if v == nil || !v.Has(c.Type) {
				t.Errorf("%s: owned carries %s, a type of another writer", id, c.Type)
			}
			got = append(got, c.Type)
		}
		if !slices.Equal(want, got) {
			t.Errorf("%s: owned types %v, want %v", id, got, want)
		}
	}
}

// Expected is what a table test expects of the shared fields of one
// object's outcome.
type Expected struct {
	// Kind is the object's kind.
	Kind string
	// Object is the object evaluated; its namespace, name, uid and
	// generation are the outcome's.
	Object metav1.ObjectMeta
	// Write, Skip and Finalizer are expected as they are.
	Write     bool
	Skip      conditions.Skip
	Finalizer conditions.FinalizerAction
	// Retry is expected as it is; RetryAt as an instant, zero when no
	// retry is due.
	Retry   bool
	RetryAt time.Time
	// Owned is the types of the owned conditions, in order.
	Owned []string
}

// CheckOutcome fails t once for every shared field of got that is not
// the expected one. An outcome with an empty uid always fails: the host
// matches outcomes to objects by it.
func CheckOutcome(t TB, want Expected, got *conditions.Outcome) {
	t.Helper()
	m := want.Object
	id := want.Kind + " " + m.Namespace + "/" + m.Name
	if got.Kind != want.Kind || got.Namespace != m.Namespace || got.Name != m.Name || got.UID != m.UID {
		t.Errorf("%s: outcome names %s %s/%s uid %q, want uid %q", id, got.Kind, got.Namespace, got.Name, got.UID, m.UID)
	}
	if got.UID == "" {
		t.Errorf("%s: outcome has no uid", id)
	}
	if got.Generation != m.Generation {
		t.Errorf("%s: generation %d, want %d", id, got.Generation, m.Generation)
	}
	if got.Write != want.Write || got.Skip != want.Skip {
		t.Errorf("%s: write=%v skip %q, want write=%v skip %q", id, got.Write, got.Skip, want.Write, want.Skip)
	}
	if got.Finalizer != want.Finalizer {
		t.Errorf("%s: finalizer %q, want %q", id, got.Finalizer, want.Finalizer)
	}
	if got.Retry != want.Retry || !got.RetryAt.Equal(want.RetryAt) {
		t.Errorf("%s: retry=%v at %v, want retry=%v at %v", id, got.Retry, got.RetryAt, want.Retry, want.RetryAt)
	}
	var owned []string
	for _, c := range got.Owned {
		owned = append(owned, c.Type)
	}
	if !slices.Equal(owned, want.Owned) {
		t.Errorf("%s: owned types %v, want %v", id, owned, want.Owned)
	}
}

// baseOutcomes points at the conditions.Outcome of each element of list:
// the element itself, or the conditions.Outcome it embeds.
func baseOutcomes[E any](list []E) ([]*conditions.Outcome, error) {
	out := make([]*conditions.Outcome, len(list))
	base := reflect.TypeFor[conditions.Outcome]()
	typ := reflect.TypeFor[E]()
	if typ == base {
		for i := range list {
			out[i] = any(&list[i]).(*conditions.Outcome)
		}
		return out, nil
	}
	if typ.Kind() != reflect.Struct {
		return nil, fmt.Errorf("CheckOutcomes: %s does not embed conditions.Outcome", typ)
	}
	f, ok := typ.FieldByName("Outcome")
	if !ok || !f.Anonymous || f.Type != base || len(f.Index) != 1 {
		return nil, fmt.Errorf("CheckOutcomes: %s does not embed conditions.Outcome", typ)
	}
	for i := range list {
		out[i] = reflect.ValueOf(&list[i]).Elem().Field(f.Index[0]).Addr().Interface().(*conditions.Outcome)
	}
	return out, nil
}
