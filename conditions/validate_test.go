package conditions

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

var condPath = field.NewPath("status", "conditions")

func TestValidate(t *testing.T) {
	good := func() []metav1.Condition {
		return []metav1.Condition{cond("Accepted", "True", "OK", 2, t0), cond("Ready", "True", "OK", 1, t0)}
	}
	cases := []struct {
		name   string
		mutate func([]metav1.Condition) []metav1.Condition
		gen    int64
		opts   []Option
		// wantField is the path of the one error expected, "" for none.
		wantField string
		wantType  field.ErrorType
	}{
		{name: "valid set", gen: 2},
		{name: "unknown reason", gen: 2, wantField: "status.conditions[1].reason", wantType: field.ErrorTypeNotSupported,
			mutate: func(c []metav1.Condition) []metav1.Condition { c[1].Reason = "Sleepy"; return c }},
		{name: "reason with the wrong status", gen: 2, wantField: "status.conditions[0].reason", wantType: field.ErrorTypeNotSupported,
			mutate: func(c []metav1.Condition) []metav1.Condition { c[0].Status = "Unknown"; return c }},
		{name: "observedGeneration above generation", gen: 1, wantField: "status.conditions[0].observedGeneration", wantType: field.ErrorTypeInvalid},
		{name: "multi-line message", gen: 2, wantField: "status.conditions[1].message", wantType: field.ErrorTypeInvalid,
			mutate: func(c []metav1.Condition) []metav1.Condition { c[1].Message = "two\nlines"; return c }},
		{name: "invalid UTF-8 message", gen: 2, wantField: "status.conditions[1].message", wantType: field.ErrorTypeInvalid,
			mutate: func(c []metav1.Condition) []metav1.Condition { c[1].Message = "bad \xff byte"; return c }},
		{name: "message over 1024 bytes", gen: 2, wantField: "status.conditions[1].message", wantType: field.ErrorTypeInvalid,
			mutate: func(c []metav1.Condition) []metav1.Condition { c[1].Message = strings.Repeat("x", 1025); return c }},
		{name: "message of exactly 1024 bytes", gen: 2,
			mutate: func(c []metav1.Condition) []metav1.Condition { c[1].Message = strings.Repeat("x", 1024); return c }},
		{name: "message on True when the kind forbids it", gen: 2, opts: []Option{EmptyMessageWhenTrue()},
			wantField: "status.conditions[1].message", wantType: field.ErrorTypeInvalid,
			mutate: func(c []metav1.Condition) []metav1.Condition { c[1].Message = "fine"; return c }},
		{name: "required type missing", gen: 2, wantField: "status.conditions", wantType: field.ErrorTypeRequired,
			mutate: func(c []metav1.Condition) []metav1.Condition { return c[:1] }},
		{name: "our types out of order", gen: 2, wantField: "status.conditions[1].type", wantType: field.ErrorTypeInvalid,
			mutate: func(c []metav1.Condition) []metav1.Condition { c[0], c[1] = c[1], c[0]; return c }},
		{name: "duplicate type (apimachinery)", gen: 2, wantField: "status.conditions[2]", wantType: field.ErrorTypeDuplicate,
			mutate: func(c []metav1.Condition) []metav1.Condition { return append(c, c[1]) }},
		{name: "missing lastTransitionTime (apimachinery)", gen: 2, wantField: "status.conditions[0].lastTransitionTime", wantType: field.ErrorTypeRequired,
			mutate: func(c []metav1.Condition) []metav1.Condition { c[0].LastTransitionTime = metav1.Time{}; return c }},
		{name: "negative observedGeneration (apimachinery)", gen: 2, wantField: "status.conditions[0].observedGeneration", wantType: field.ErrorTypeInvalid,
			mutate: func(c []metav1.Condition) []metav1.Condition { c[0].ObservedGeneration = -1; return c }},
		{name: "foreign type is only checked by apimachinery", gen: 2,
			mutate: func(c []metav1.Condition) []metav1.Condition {
				f := cond("Other", "True", "AnyReason", 99, t0)
				f.Message = "may be\nmulti-line"
				return append(c, f)
			}},
		{name: "no condition of ours: nothing is required", gen: 2,
			mutate: func(c []metav1.Condition) []metav1.Condition { return nil }},
		{name: "generation zero with observedGeneration zero", gen: 0,
			mutate: func(c []metav1.Condition) []metav1.Condition {
				c[0].ObservedGeneration, c[1].ObservedGeneration = 0, 0
				return c
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			conds := good()
			if tc.mutate != nil {
				conds = tc.mutate(conds)
			}
			errs := testVocab(t, tc.opts...).Validate(conds, tc.gen, condPath)
			if tc.wantField == "" {
				assert.Empty(t, errs)
				return
			}
			if assert.Len(t, errs, 1, "%v", errs) {
				assert.Equal(t, tc.wantField, errs[0].Field)
				assert.Equal(t, tc.wantType, errs[0].Type)
			}
		})
	}
}

func TestValidate_ErrorEchoOfAHugeMessageIsShort(t *testing.T) {
	conds := []metav1.Condition{cond("Accepted", "True", "OK", 1, t0), cond("Ready", "True", "OK", 1, t0)}
	conds[1].Message = strings.Repeat("é", 1<<19) // 1 MiB
	errs := testVocab(t).Validate(conds, 1, condPath)
	assert.NotEmpty(t, errs)
	for _, e := range errs {
		assert.Less(t, len(e.Error()), 1024)
	}
}

func TestMessageProblem(t *testing.T) {
	assert.Empty(t, MessageProblem(""))
	assert.Empty(t, MessageProblem("generation 2 is invalid, serving generation 1"))
	assert.NotEmpty(t, MessageProblem("tab\there"))
	assert.NotEmpty(t, MessageProblem("line\u2028separator"))
	assert.NotEmpty(t, MessageProblem("nul\x00"))
}
