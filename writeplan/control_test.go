package writeplan_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"pgregory.net/rapid"
	"sigs.k8s.io/yaml"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/writeplan"
)

var bookGVK = finopsv1.GroupVersion.WithKind(finopsv1.KindPriceBook)

// yamlRefused lists the characters a YAML reader refuses or reads as
// something else, and encoding/json leaves raw: DEL, the C1 controls,
// the noncharacters; with the separators, the byte order mark and a
// C0 control for good measure.
func yamlRefused() string {
	s := "\x01\x7f"
	for r := rune(0x80); r <= 0x9f; r++ {
		s += string(r)
	}
	return s + "\u2028\u2029\ufeff\ufffe\uffff"
}

// book stores a PriceBook with one condition of ours written by another
// manager, so that a plan removes it first and its apply is guarded by
// what the removal left.
func book(t *testing.T) (*store, *finopsv1.PriceBook) {
	s, err := newStore(bookGVK)
	require.NoError(t, err)
	b := &finopsv1.PriceBook{ObjectMeta: metav1.ObjectMeta{Namespace: "finops", Name: "standard"},
		Spec: finopsv1.PriceBookSpec{Currency: "EUR", ValuationMode: finopsv1.ValuationPercent}}
	b.SetGroupVersionKind(bookGVK)
	b.Status.Conditions = []metav1.Condition{{Type: "Active", Status: metav1.ConditionTrue, Reason: "Activated", Message: "by hand",
		ObservedGeneration: 1, LastTransitionTime: metav1.Unix(1_700_000_000, 0)}}
	require.NoError(t, s.create(toU(t, b), "kubectl-edit"))
	var read finopsv1.PriceBook
	require.NoError(t, runtime.DefaultUnstructuredConverter.FromUnstructured(s.get().Object, &read))
	return s, &read
}

// writeBook plans the status st for read and carries the plan out.
func writeBook(t interface {
	Fatalf(string, ...any)
	Fatal(...any)
}, s *store, read *finopsv1.PriceBook, st finopsv1.PriceBookStatus) (writeplan.Plan, *finopsv1.PriceBook) {
	o := &conditions.Outcome{Kind: finopsv1.KindPriceBook, Namespace: read.Namespace, Name: read.Name, UID: read.UID,
		Conditions: st.Conditions, Owned: st.Conditions, Write: true}
	p, err := writeplan.For(read, o, st, writeplan.Options{FieldManager: ourManager, Kind: writeplan.Kind{APIVersion: finopsv1.APIVersion, Kind: finopsv1.KindPriceBook}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range p.Requests {
		if err := s.carry(r); err != nil {
			t.Fatalf("%s refused: %v\nbody %q", r.Step, err, r.Body)
		}
	}
	var got finopsv1.PriceBook
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(s.get().Object, &got); err != nil {
		t.Fatal(err)
	}
	return p, &got
}

// A percent-mode book's rates reach status.activePricing as written, and
// a condition message may hold anything: a rate holding U+009C, or any
// character a YAML reader refuses, is applied through a reader that
// refuses them and stored as it was.
func TestFor_ControlCharacters_StoredAsWritten(t *testing.T) {
	odd := yamlRefused()
	s, read := book(t)
	st := finopsv1.PriceBookStatus{Active: true, Ready: metav1.ConditionTrue,
		ActivePricing: map[string]string{"CPU": "0.5\u009c", "RAM": odd, "GPU" + odd: "1"},
		Conditions: []metav1.Condition{{Type: "Ready", Status: metav1.ConditionTrue, Reason: "PricebookValid", Message: "rates " + odd,
			ObservedGeneration: 1, LastTransitionTime: metav1.Unix(1_700_000_000, 0)}}}
	p, got := writeBook(t, s, read, st)
	require.Len(t, p.Requests, 2, "a removal, then the apply it guards")
	assert.Equal(t, st.ActivePricing, got.Status.ActivePricing)
	require.Len(t, got.Status.Conditions, 1)
	assert.Equal(t, st.Conditions[0].Message, got.Status.Conditions[0].Message)
	for _, r := range p.Requests {
		assert.NotContains(t, string(r.Body), "\u009c", "%s: the body carries the character escaped", r.Step)
	}
}

// oddText draws strings rich in what YAML readers treat specially.
func oddText() *rapid.Generator[string] {
	var special []rune
	for _, r := range yamlRefused() + "\t\n\r\"\\':#&*!|>%@`{}[],-? \u00a0\ud7ff\ue000\ufffd\U00010000\U0001f600\U0010ffff" {
		special = append(special, r)
	}
	return rapid.OneOf(rapid.String(), rapid.StringOf(rapid.OneOf(rapid.SampledFrom(special), rapid.Rune())))
}

// readAsAPIServer decodes a body as an API server reads an apply body.
func readAsAPIServer(body []byte) (any, error) {
	js, err := yaml.YAMLToJSON(body)
	if err != nil {
		return nil, err
	}
	var v any
	return v, json.Unmarshal(js, &v)
}

// Whatever text a status holds, every body of the plan, and every body
// guarded again, is read by the API server's YAML reader as the JSON it
// is, and the store ends up holding the status as it was.
func TestFor_PropertyBodiesReadAsWritten(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s, err := newStore(bookGVK)
		if err != nil {
			t.Fatal(err)
		}
		b := &finopsv1.PriceBook{ObjectMeta: metav1.ObjectMeta{Namespace: "finops", Name: "standard"}}
		b.SetGroupVersionKind(bookGVK)
		b.Status.Conditions = []metav1.Condition{{Type: "Active", Status: metav1.ConditionTrue, Reason: "Activated",
			Message: oddText().Draw(t, "theirs"), ObservedGeneration: 1, LastTransitionTime: metav1.Unix(1_700_000_000, 0)}}
		if err := s.create(toU(t, b), "kubectl-edit"); err != nil {
			t.Fatal(err)
		}
		var read finopsv1.PriceBook
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(s.get().Object, &read); err != nil {
			t.Fatal(err)
		}
		st := finopsv1.PriceBookStatus{Active: true, Ready: metav1.ConditionTrue,
			ActivePricing: rapid.MapOf(oddText(), oddText()).Draw(t, "pricing"),
			Conditions: []metav1.Condition{{Type: "Ready", Status: metav1.ConditionTrue, Reason: "PricebookValid",
				Message: oddText().Draw(t, "message"), ObservedGeneration: 1, LastTransitionTime: metav1.Unix(1_700_000_000, 0)}}}
		if len(st.ActivePricing) == 0 {
			st.ActivePricing = nil
		}
		p, got := writeBook(t, s, &read, st)
		for _, r := range p.Requests {
			guarded, err := r.GuardedBody("7")
			if err != nil {
				t.Fatal(err)
			}
			for _, body := range [][]byte{r.Body, guarded} {
				var want any
				if err := json.Unmarshal(body, &want); err != nil {
					t.Fatalf("%s: not JSON: %v", r.Step, err)
				}
				v, err := readAsAPIServer(body)
				if err != nil {
					t.Fatalf("%s: the API server's reader refuses %q: %v", r.Step, body, err)
				}
				if !reflect.DeepEqual(v, want) {
					t.Fatalf("%s: read as %v, JSON is %v", r.Step, v, want)
				}
			}
		}
		if !reflect.DeepEqual(got.Status.ActivePricing, st.ActivePricing) {
			t.Fatalf("activePricing stored %q, written %q", got.Status.ActivePricing, st.ActivePricing)
		}
		if len(got.Status.Conditions) != 1 || got.Status.Conditions[0].Message != st.Conditions[0].Message {
			t.Fatalf("conditions stored %v, message written %q", got.Status.Conditions, st.Conditions[0].Message)
		}
	})
}
