package check

import (
	"fmt"

	"github.com/condengine/condengine/conditions"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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

func ruleVocabulary(v *conditions.Vocabulary, o Object, report reporter) {
	for i, c := range o.Conditions {
		if v.Has(c.Type) {
			if _, ok := v.Lookup(c.Type, c.Status, c.Reason); !ok {
				report(i, "reason", fmt.Sprintf("%s %s %s is not in the %s vocabulary", c.Type, c.Status, c.Reason, v.Kind()))
			}
		}
	}
}

func ruleGenerationCeiling(_ *conditions.Vocabulary, o Object, report reporter) {
	for i, c := range o.Conditions {
		if c.ObservedGeneration > o.Generation {
			report(i, "observedGeneration", fmt.Sprintf("%d is above metadata.generation %d", c.ObservedGeneration, o.Generation))
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
	for i, c := range o.Conditions {
		if p := conditions.MessageProblem(c.Message); p != "" && v.Has(c.Type) {
			report(i, "message", p)
		}
	}
}

func ruleOrder(v *conditions.Vocabulary, o Object, report reporter) {
	last := -1
	for i, c := range o.Conditions {
		k := v.Index(c.Type)
		if k < 0 {
			continue
		}
		if k < last {
			report(i, "type", fmt.Sprintf("%s comes after a type the vocabulary puts later", c.Type))
		}
		last = max(last, k)
	}
}

func ruleRequired(v *conditions.Vocabulary, o Object, report reporter) {
	any := false
	for _, c := range o.Conditions {
		any = any || v.Has(c.Type)
	}
	if !any {
		return
	}
	for _, t := range v.Types() {
		if t.Required && conditions.Find(o.Conditions, t.Name) == nil {
			report(-1, "", fmt.Sprintf("required condition %s is missing", t.Name))
		}
	}
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
