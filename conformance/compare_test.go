package conformance_test

import (
	"encoding/json"
	"testing"
	"time"

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

// One rule of absence: a status field whose value is its type's zero
// value may be left out and compares equal to the zero value, either
// way round, at any depth; a non-zero value is never the same as absent.
func TestCompare_ZeroValueEqualsAbsentEitherWay(t *testing.T) {
	full := `{"active":false,"ready":"","root":null,"costs":[{"granularity":"day","current":0,"projected":0,"breakdown":[]}],"pricing":{},"meters":[]}`
	bare := `{"costs":[{"granularity":"day"}]}`
	for name, pair := range map[string][2]string{
		"written zeros, engine left out": {bare, full},
		"engine zeros, answer left out":  {full, bare},
		"no status at all":               {`{"active":false,"meters":[],"pricing":{"x":0}}`, ``},
	} {
		t.Run(name, func(t *testing.T) {
			d := conformance.Compare([]conformance.Object{obj("Subscription", "a", "s", pair[0])}, []conformance.Object{obj("Subscription", "a", "s", pair[1])})
			assert.Empty(t, d)
		})
	}
	for name, pair := range map[string][3]string{
		"a number is not absent":    {`{"costs":[{"current":5}]}`, `{"costs":[{}]}`, `Subscription a/s: status.costs[0].current: want 5, got (absent)`},
		"a list with an element":    {`{}`, `{"meters":[{}]}`, `Subscription a/s: status.meters: want (absent), got [{}]`},
		"true is not absent":        {`{"active":true}`, `{}`, `Subscription a/s: status.active: want true, got (absent)`},
		"a string is not absent":    {`{}`, `{"root":"u"}`, `Subscription a/s: status.root: want (absent), got "u"`},
		"a zero of another type":    {`{"n":0}`, `{"n":""}`, `Subscription a/s: status.n: want 0, got ""`},
		"nested non-zero in absent": {`{}`, `{"pricing":{"x":1}}`, `Subscription a/s: status.pricing.x: want (absent), got 1`},
	} {
		t.Run(name, func(t *testing.T) {
			var got []string
			for _, d := range conformance.Compare([]conformance.Object{obj("Subscription", "a", "s", pair[0])}, []conformance.Object{obj("Subscription", "a", "s", pair[1])}) {
				got = append(got, d.String())
			}
			assert.Equal(t, []string{pair[2]}, got)
		})
	}
}

// retryAt is an exact instant: a second's fraction is a difference, and
// the answer line carries it.
func TestCompare_RetryAtToTheNanosecond(t *testing.T) {
	at := time.Date(2026, 11, 30, 10, 0, 5, 300_000_000, time.UTC)
	w := obj("Binding", "a", "b", "")
	w.RetryAt = &at
	g := w
	whole := at.Truncate(time.Second)
	g.RetryAt = &whole
	opts := conformance.CompareOptions{Keys: []string{conformance.KeyRetryAt}}
	d := conformance.CompareWith([]conformance.Object{w}, []conformance.Object{g}, opts)
	if assert.Len(t, d, 1) {
		assert.Equal(t, `Binding a/b: retryAt: want "2026-11-30T10:00:05.3Z", got "2026-11-30T10:00:05Z"`, d[0].String())
	}
	assert.Empty(t, conformance.CompareWith([]conformance.Object{w}, []conformance.Object{w}, opts))
	line, err := json.Marshal(w)
	assert.NoError(t, err)
	assert.Contains(t, string(line), `"retryAt":"2026-11-30T10:00:05.3Z"`)
}
