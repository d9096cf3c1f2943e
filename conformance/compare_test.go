package conformance_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conformance"
)

func obj(kind, ns, name, status string, conds ...metav1.Condition) conformance.Object {
	o := conformance.Object{Kind: kind, Namespace: ns, Name: name, Conditions: conds}
	if status != "" {
		o.Status = json.RawMessage(status)
	}
	return o
}

func cond(typ, status, reason string) metav1.Condition {
	return metav1.Condition{Type: typ, Status: metav1.ConditionStatus(status), Reason: reason, ObservedGeneration: 1}
}

func TestCompare(t *testing.T) {
	ready := cond("Ready", "True", "OK")
	accepted := cond("Accepted", "True", "OK")
	base := obj("Subscription", "a", "s", `{"phase":"Active","n":1,"m":{"x":[1,2]}}`, accepted, ready)
	for name, tc := range map[string]struct {
		got  []conformance.Object
		want []string
	}{
		"equal, other order":  {[]conformance.Object{obj("Subscription", "a", "s", `{"m":{"x":[1,2]},"n":1.0,"phase":"Active","gone":null}`, ready, accepted)}, nil},
		"missing object":      {nil, []string{`Subscription a/s: want listed, got (absent)`}},
		"extra object":        {[]conformance.Object{base, obj("Offering", "a", "o", "")}, []string{`Offering a/o: want (absent), got listed`}},
		"listed twice":        {[]conformance.Object{base, base}, []string{`Subscription a/s: want listed once, got listed 2 times`}},
		"reason":              {[]conformance.Object{obj("Subscription", "a", "s", `{"phase":"Active","n":1,"m":{"x":[1,2]}}`, accepted, cond("Ready", "True", "Fine"))}, []string{`Subscription a/s: conditions[Ready].reason: want "OK", got "Fine"`}},
		"missing condition":   {[]conformance.Object{obj("Subscription", "a", "s", `{"phase":"Active","n":1,"m":{"x":[1,2]}}`, accepted)}, []string{`Subscription a/s: conditions[Ready]: want "True OK", got (absent)`}},
		"extra condition":     {[]conformance.Object{obj("Subscription", "a", "s", `{"phase":"Active","n":1,"m":{"x":[1,2]}}`, accepted, ready, cond("Other", "False", "No"))}, []string{`Subscription a/s: conditions[Other]: want (absent), got "False No"`}},
		"status scalar":       {[]conformance.Object{obj("Subscription", "a", "s", `{"phase":"Pending","n":1,"m":{"x":[1,2]}}`, accepted, ready)}, []string{`Subscription a/s: status.phase: want "Active", got "Pending"`}},
		"status list element": {[]conformance.Object{obj("Subscription", "a", "s", `{"phase":"Active","n":1,"m":{"x":[1,3]}}`, accepted, ready)}, []string{`Subscription a/s: status.m.x[1]: want 2, got 3`}},
		"status extra field":  {[]conformance.Object{obj("Subscription", "a", "s", `{"phase":"Active","n":1,"m":{"x":[1,2]},"new":true}`, accepted, ready)}, []string{`Subscription a/s: status.new: want (absent), got true`}},
	} {
		t.Run(name, func(t *testing.T) {
			var got []string
			for _, d := range conformance.Compare([]conformance.Object{base}, tc.got) {
				got = append(got, d.String())
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestDecodeAnswer_Strict(t *testing.T) {
	for name, line := range map[string]string{
		"not json":       `{`,
		"no objects":     `{}`,
		"null objects":   `{"objects":null}`,
		"unknown key":    `{"objects":[],"x":1}`,
		"nested unknown": `{"objects":[{"kind":"Binding","name":"a","conditions":[],"colour":"red"}]}`,
		"two values":     `{"objects":[]}{"objects":[]}`,
		"nameless":       `{"objects":[{"kind":"Binding","conditions":[]}]}`,
		"typeless cond":  `{"objects":[{"kind":"Binding","name":"a","conditions":[{"status":"True"}]}]}`,
		"status list":    `{"objects":[{"kind":"Binding","name":"a","conditions":[],"status":[1]}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := conformance.DecodeAnswer([]byte(line))
			assert.Error(t, err)
		})
	}
	objs, err := conformance.DecodeAnswer([]byte(`{"objects":[{"kind":"Binding","namespace":"a","name":"b","conditions":[{"type":"Ready","status":"True","reason":"OK","message":"","lastTransitionTime":"2026-11-30T10:00:00Z"}],"status":null}]}`))
	assert.NoError(t, err)
	assert.Len(t, objs, 1)
}

// FuzzDecodeAnswer: no answer line makes the decoder or the comparison
// panic.
func FuzzDecodeAnswer(f *testing.F) {
	f.Add([]byte(`{"objects":[{"kind":"Binding","name":"a","conditions":[{"type":"Ready","status":"True","reason":"OK"}],"status":{"a":[1,{"b":null}]}}]}`))
	f.Add([]byte(`{"objects":[]}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		objs, err := conformance.DecodeAnswer(line)
		if err != nil {
			return
		}
		if d := conformance.Compare(objs, objs); len(d) > 0 && !hasDuplicates(objs) {
			t.Fatalf("an answer differs from itself: %v", d)
		}
	})
}

func hasDuplicates(objs []conformance.Object) bool {
	seen := map[string]bool{}
	for _, o := range objs {
		if seen[o.ID()] {
			return true
		}
		seen[o.ID()] = true
		types := map[string]bool{}
		for _, c := range o.Conditions {
			if types[c.Type] {
				return true
			}
			types[c.Type] = true
		}
	}
	return false
}

// ID names a namespaced object "Kind namespace/name" and a cluster-scoped
// one "Kind name", the bytes the conform report prints.
func TestObject_ID(t *testing.T) {
	assert.Equal(t, "Binding team-a/chat", obj("Binding", "team-a", "chat", "").ID())
	assert.Equal(t, "PriceBook list", obj("PriceBook", "", "list", "").ID())
}
