// Package conditionstest helps host operators compare condition lists in
// their own unit tests: go-cmp options that ignore what a test should not
// pin down, and an assertion that prints a -want +got diff. For the
// engine's outcomes it has CheckOutcomes (the rules every kind's list
// obeys) and CheckOutcome (one outcome's shared fields against a table
// test's expectation). For a kind's rule table it has CheckRuleTable
// (the table and the vocabulary, as values, agree and leave nothing out:
// no orphan reason, no write the vocabulary lacks, no rule of another
// kind), CheckRuleSource (the three source conventions a package may
// follow, stated in SourceProblems) and CheckForgetting (forgetting any
// part of a new reason fails one of the two).
package conditionstest

import (
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// IgnoreLastTransitionTime makes cmp skip lastTransitionTime, for tests
// that do not control the clock.
func IgnoreLastTransitionTime() cmp.Option {
	return cmpopts.IgnoreFields(metav1.Condition{}, "LastTransitionTime")
}

// IgnoreMessage makes cmp skip messages entirely.
func IgnoreMessage() cmp.Option {
	return cmpopts.IgnoreFields(metav1.Condition{}, "Message")
}

// LooseMessages compares messages loosely: two messages match when one
// contains the other (cmp needs a symmetric comparer), so a test can want
// the part of a message it cares about. An empty message matches only an
// empty one, so "must be empty" stays checkable. The option applies to
// the Message field of metav1.Condition only.
func LooseMessages() cmp.Option {
	return cmp.FilterPath(func(p cmp.Path) bool {
		sf, ok := p.Last().(cmp.StructField)
		return ok && sf.Name() == "Message" && p.Index(-2).Type() == conditionType
	}, cmp.Comparer(func(a, b string) bool {
		if a == "" || b == "" {
			return a == b
		}
		return strings.Contains(a, b) || strings.Contains(b, a)
	}))
}

var conditionType = reflect.TypeOf(metav1.Condition{})

// Diff returns the -want +got difference of two condition lists under
// the given options, or "" when they match.
func Diff(want, got []metav1.Condition, opts ...cmp.Option) string {
	opts = append(opts, cmpopts.EquateEmpty(), timeEqual)
	return cmp.Diff(want, got, opts...)
}

// timeEqual compares metav1.Time as instants, whatever their location.
var timeEqual = cmp.Comparer(func(a, b metav1.Time) bool { return a.Equal(&b) })

// AssertConditions fails t with a -want +got diff when the lists differ.
// It returns whether they matched, in the style of testify's assertions.
func AssertConditions(t testing.TB, want, got []metav1.Condition, opts ...cmp.Option) bool {
	t.Helper()
	if d := Diff(want, got, opts...); d != "" {
		t.Errorf("conditions differ (-want +got):\n%s", d)
		return false
	}
	return true
}
