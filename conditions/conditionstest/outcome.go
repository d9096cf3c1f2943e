package conditionstest

import (
	"slices"

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
func CheckOutcomes(t TB, v *conditions.Vocabulary, outs []*conditions.Outcome) {
	t.Helper()
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
