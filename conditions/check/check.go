package check

import (
	"fmt"
	"time"

	"github.com/condengine/condengine/conditions"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Object is what the rules read: an object's generation, its conditions,
// and the moment the check runs at (for the future-time rule).
type Object struct {
	// Generation is metadata.generation.
	Generation int64
	// Conditions is status.conditions as the object holds them.
	Conditions []metav1.Condition
	// Now is when the check runs; the zero time skips CE009.
	Now time.Time
}

// Severity says how much a finding matters.
type Severity string

const (
	// Error marks a broken convention: the host wrote something wrong.
	Error Severity = "error"
	// Info marks a state worth knowing but legal, such as a condition
	// that has not caught up with the newest generation.
	Info Severity = "info"
)

// Finding is one rule that does not hold on one condition (or on the
// list, when Field has no index).
type Finding struct {
	// Rule is the stable ID of the rule, e.g. "CE003".
	Rule string
	// Severity is Error or Info.
	Severity Severity
	// Field is the path of what is wrong, e.g. status.conditions[1].reason.
	Field string
	// Detail says what is wrong in this object.
	Detail string
}

func (f Finding) String() string {
	return fmt.Sprintf("%s %s %s: %s", f.Rule, f.Severity, f.Field, f.Detail)
}

// Rule is one numbered convention. The IDs never change meaning; retired
// rules leave gaps.
type Rule struct {
	// ID is stable, e.g. "CE001".
	ID string
	// Summary is the rule as one English sentence.
	Summary string
	// Severity of the findings this rule makes.
	Severity Severity
	check    func(v *conditions.Vocabulary, o Object, report func(i int, child, detail string))
}

var condPath = field.NewPath("status", "conditions")

// Run applies every rule to one object of the vocabulary's kind and
// returns the findings in rule order, then condition order. An empty
// result means the object follows every convention.
func Run(v *conditions.Vocabulary, o Object) []Finding {
	var out []Finding
	for _, r := range Rules() {
		r.check(v, o, func(i int, child, detail string) {
			p := condPath
			if i >= 0 {
				p = p.Index(i)
			}
			if child != "" {
				p = p.Child(child)
			}
			out = append(out, Finding{Rule: r.ID, Severity: r.Severity, Field: p.String(), Detail: detail})
		})
	}
	return out
}

// Errors keeps the findings of severity Error.
func Errors(fs []Finding) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.Severity == Error {
			out = append(out, f)
		}
	}
	return out
}
