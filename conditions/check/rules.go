package check

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/condengine/condengine/conditions"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Rules lists the conventions in ID order. The slice is new on every call.
func Rules() []Rule {
	return []Rule{
		{ID: "CE001", Severity: Error, Summary: "A condition type appears at most once on an object.", check: ruleOnce},
		{ID: "CE002", Severity: Error, Summary: "Status is one of True, False and Unknown.", check: ruleStatus},
		{ID: "CE003", Severity: Error, Summary: "Each condition of the kind carries a (type, status, reason) its vocabulary lists.", check: ruleVocabulary},
		{ID: "CE004", Severity: Error, Summary: "observedGeneration is never above metadata.generation.", check: ruleGenerationCeiling},
		{ID: "CE005", Severity: Error, Summary: "lastTransitionTime is set and falls on a whole second.", check: ruleTimeSet},
		{ID: "CE006", Severity: Error, Summary: "A message is one line of valid UTF-8 of at most 1024 bytes.", check: ruleMessage},
		{ID: "CE007", Severity: Error, Summary: "The kind's conditions come in its vocabulary's order.", check: ruleOrder},
		{ID: "CE008", Severity: Error, Summary: "Once any condition of the kind is present, every required type is present.", check: ruleRequired},
		{ID: "CE009", Severity: Error, Summary: "lastTransitionTime is not later than the moment of the check.", check: ruleNotFuture},
		{ID: "CE010", Severity: Info, Summary: "A condition behind metadata.generation describes an older spec.", check: ruleBehind},
	}
}

type reporter = func(i int, child, detail string)

func ruleOnce(_ *conditions.Vocabulary, o Object, report reporter) {
	seen := map[string]int{}
	for i, c := range o.Conditions {
		if j, dup := seen[c.Type]; dup {
			report(i, "type", fmt.Sprintf("%s already appears at index %d", c.Type, j))
			continue
		}
		seen[c.Type] = i
	}
}

func ruleStatus(_ *conditions.Vocabulary, o Object, report reporter) {
	for i, c := range o.Conditions {
		switch c.Status {
		case metav1.ConditionTrue, metav1.ConditionFalse, metav1.ConditionUnknown:
		default:
			report(i, "status", fmt.Sprintf("%q is not True, False or Unknown", c.Status))
		}
	}
}

// The vocabulary's own rules (CE003, CE004 for the kind's conditions,
// CE006-CE008) are Vocabulary.Validate's: each of these rules reports the
// errors Validate adds beyond apimachinery's ValidateConditions on the
// field it names, so the two can never disagree.

func ruleVocabulary(v *conditions.Vocabulary, o Object, report reporter) {
	reportOwn(v, o, report, "reason")
}

func ruleGenerationCeiling(v *conditions.Vocabulary, o Object, report reporter) {
	reportOwn(v, o, report, "observedGeneration")
	// Conditions of other writers are outside the vocabulary; the ceiling
	// holds for them too.
	for i, c := range o.Conditions {
		if !v.Has(c.Type) && c.ObservedGeneration > o.Generation {
			report(i, "observedGeneration", field.Invalid(condPath.Index(i).Child("observedGeneration"), c.ObservedGeneration,
				fmt.Sprintf("must not be above metadata.generation (%d)", o.Generation)).ErrorBody())
		}
	}
}

func ruleTimeSet(_ *conditions.Vocabulary, o Object, report reporter) {
	for i, c := range o.Conditions {
		switch {
		case c.LastTransitionTime.IsZero():
			report(i, "lastTransitionTime", "is not set")
		case c.LastTransitionTime.Nanosecond() != 0:
			report(i, "lastTransitionTime", "has a fraction of a second")
		}
	}
}

func ruleMessage(v *conditions.Vocabulary, o Object, report reporter) {
	reportOwn(v, o, report, "message")
}

func ruleOrder(v *conditions.Vocabulary, o Object, report reporter) {
	reportOwn(v, o, report, "type")
}

func ruleRequired(v *conditions.Vocabulary, o Object, report reporter) {
	reportOwn(v, o, report, "")
}

// reportOwn reports the errors Vocabulary.Validate finds beyond
// ValidateConditions whose field is child of a condition ("" for the
// list itself).
func reportOwn(v *conditions.Vocabulary, o Object, report reporter, child string) {
	generic := map[string]bool{}
	for _, e := range metav1validation.ValidateConditions(o.Conditions, condPath) {
		generic[e.Error()] = true
	}
	for _, e := range v.Validate(o.Conditions, o.Generation, condPath) {
		if generic[e.Error()] {
			continue
		}
		i, c := splitField(e.Field)
		if c == child {
			report(i, c, e.ErrorBody())
		}
	}
}

// splitField splits "status.conditions[2].reason" into 2 and "reason";
// the list's own path gives -1 and "".
func splitField(f string) (int, string) {
	rest, ok := strings.CutPrefix(f, condPath.String()+"[")
	if !ok {
		return -1, ""
	}
	num, child, _ := strings.Cut(rest, "]")
	i, err := strconv.Atoi(num)
	if err != nil {
		return -1, ""
	}
	return i, strings.TrimPrefix(child, ".")
}

func ruleNotFuture(_ *conditions.Vocabulary, o Object, report reporter) {
	if o.Now.IsZero() {
		return
	}
	for i, c := range o.Conditions {
		if c.LastTransitionTime.After(o.Now) {
			report(i, "lastTransitionTime", "is later than now")
		}
	}
}

func ruleBehind(v *conditions.Vocabulary, o Object, report reporter) {
	for i, c := range o.Conditions {
		if v.Has(c.Type) && c.ObservedGeneration < o.Generation {
			report(i, "observedGeneration", fmt.Sprintf("%s describes generation %d of %d", c.Type, c.ObservedGeneration, o.Generation))
		}
	}
}
