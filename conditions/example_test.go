package conditions_test

import (
	"fmt"
	"strconv"
	"time"

	"github.com/condengine/condengine/conditions"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// A kind's vocabulary, an evaluation that wants two conditions, and the
// merge that turns them into the list to write.
func Example() {
	vocab := conditions.MustVocabulary("example.dev/v1", "Widget", []conditions.Type{
		{Name: "Accepted", Required: true, Reasons: []conditions.Reason{
			{Status: metav1.ConditionTrue, Reason: "OK", Meaning: "The spec was taken as written."},
			{Status: metav1.ConditionFalse, Reason: "InvalidSpec", Meaning: "The spec fails a check.", Action: "Fix the field the message names."},
		}},
		{Name: "Ready", Required: true, Reasons: []conditions.Reason{
			{Status: metav1.ConditionTrue, Reason: "OK"},
			{Status: metav1.ConditionFalse, Reason: "Accepted:InvalidSpec"},
		}},
	})
	earlier := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

	onObject := []metav1.Condition{
		{Type: "Ready", Status: metav1.ConditionTrue, Reason: "OK", ObservedGeneration: 1, LastTransitionTime: metav1.NewTime(earlier)},
		{Type: "Accepted", Status: metav1.ConditionTrue, Reason: "OK", ObservedGeneration: 1, LastTransitionTime: metav1.NewTime(earlier)},
		{Type: "Audited", Status: metav1.ConditionTrue, Reason: "ByOtherTool", LastTransitionTime: metav1.NewTime(earlier)},
	}
	wanted := []metav1.Condition{
		{Type: "Ready", Status: metav1.ConditionFalse, Reason: "Accepted:InvalidSpec", Message: "spec.size: must be positive", ObservedGeneration: 2},
		{Type: "Accepted", Status: metav1.ConditionFalse, Reason: "InvalidSpec", Message: "spec.size: must be positive", ObservedGeneration: 2},
	}
	r := vocab.Merge(onObject, wanted, 2, now)
	fmt.Println("write due:", r.Changed)
	for _, c := range r.Conditions {
		fmt.Println(c.Type, c.Status, c.Reason, c.ObservedGeneration, c.LastTransitionTime.UTC().Format(time.RFC3339))
	}
	fmt.Println("errors:", len(vocab.Validate(r.Conditions, 2, field.NewPath("status", "conditions"))))
	// Output:
	// write due: true
	// Accepted False InvalidSpec 2 2026-11-30T10:00:00Z
	// Ready False Accepted:InvalidSpec 2 2026-11-30T10:00:00Z
	// Audited True ByOtherTool 0 2026-11-30T09:00:00Z
	// errors: 0
}

// An evaluator fills the shared outcome from its merge: the full list,
// the owned part a server-side apply carries, and whether to write.
func ExampleOutcome() {
	vocab := conditions.MustVocabulary("example.dev/v1", "Widget", []conditions.Type{
		{Name: "Ready", Required: true, Reasons: []conditions.Reason{
			{Status: metav1.ConditionTrue, Reason: "OK"},
			{Status: metav1.ConditionFalse, Reason: "Broken"},
		}},
	})
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	onObject := []metav1.Condition{
		{Type: "example.com/Audited", Status: metav1.ConditionTrue, Reason: "ByOtherTool", ObservedGeneration: 2},
	}
	// The desired condition leaves observedGeneration zero: Merge writes 2.
	m := vocab.Merge(onObject, []metav1.Condition{{Type: "Ready", Status: metav1.ConditionTrue, Reason: "OK"}}, 2, now)

	o := conditions.Outcome{Kind: vocab.Kind(), Namespace: "shop", Name: "w", UID: "u-w", Generation: 2,
		Conditions: m.Conditions, Owned: vocab.Owned(m.Conditions)}
	o.Decide(m, false)
	fmt.Println("write:", o.Write, "skip:", o.Skip == conditions.SkipNone)
	for _, c := range o.Conditions {
		fmt.Println("conditions:", c.Type, c.ObservedGeneration)
	}
	for _, c := range o.Owned {
		fmt.Println("owned:", c.Type, c.ObservedGeneration)
	}
	// Output:
	// write: true skip: true
	// conditions: Ready 2
	// conditions: example.com/Audited 2
	// owned: Ready 2
}

// A kind declares each rule once; its vocabulary is read from the rules,
// a deciding function returns the verdict of the rule that fired, and a
// recorder (nil in Evaluate) keeps the evidence for Explain.
func ExampleFromRules() {
	rules := []conditions.Rule{
		{ID: "widget/accepted/ok", Kind: "Widget", Types: []string{"Accepted"}, Sentence: "every check passes",
			Writes: []conditions.Reason{{Status: metav1.ConditionTrue, Reason: "OK", Meaning: "Taken as written.", Action: "Nothing."}}},
		{ID: "widget/accepted/invalid-size", Kind: "Widget", Types: []string{"Accepted"}, Sentence: "spec.size is not positive",
			Writes: []conditions.Reason{{Status: metav1.ConditionFalse, Reason: "InvalidSize", Meaning: "spec.size is not positive.", Action: "Give a positive size."}}},
	}
	vocab := conditions.MustVocabulary("example.dev/v1", "Widget", []conditions.Type{{Name: "Accepted", Required: true}}, conditions.FromRules(rules))

	decide := func(size, generation int64, rec *conditions.Recorder) conditions.Verdict {
		if rec.On() {
			rec.Read("Accepted", conditions.ObjectRef{Kind: "Widget", Name: "w"}, conditions.F("spec.size", strconv.FormatInt(size, 10)))
		}
		if size <= 0 {
			return rules[1].Verdict(0, "spec.size: must be positive", generation)
		}
		return rules[0].Verdict(0, "", generation)
	}

	rec := &conditions.Recorder{}
	v := decide(-1, 3, rec)
	rec.Decided("Accepted", "", v)
	c := v.Condition("Accepted")
	fmt.Println(c.Status, c.Reason, c.Message, c.ObservedGeneration)
	for _, p := range rec.Provenance() {
		fmt.Println(p.Type, p.Rule, p.Evidence[0].Facts)
	}
	r, _ := vocab.Lookup("Accepted", metav1.ConditionFalse, "InvalidSize")
	fmt.Println(r.Action)
	// Output:
	// False InvalidSize spec.size: must be positive 3
	// Accepted widget/accepted/invalid-size [{spec.size -1}]
	// Give a positive size.
}
