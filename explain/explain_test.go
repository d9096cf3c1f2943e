package explain_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/explain"
)

var self = conditions.ObjectRef{Kind: "Subscription", Namespace: "team-a", Name: "s", UID: "u-s", Generation: 2}

func cond(typ, status, reason string) metav1.Condition {
	return metav1.Condition{Type: typ, Status: metav1.ConditionStatus(status), Reason: reason, ObservedGeneration: 2}
}

func TestNewObject_PairsProvenanceByPositionAndType(t *testing.T) {
	conds := []metav1.Condition{cond("Ready", "True", "OK"), cond("Active", "True", "OK"), cond("Other", "True", "X")}
	prov := []conditions.Provenance{
		{Type: "Ready", Rule: "r/ready", From: "Active", Evidence: []conditions.Evidence{{Object: self}}},
		{Type: "Deleting", Rule: "r/deleting"}, // out of line with conds: not Active's
	}
	x := explain.NewObject("Subscription", "team-a", "s", conds, prov, map[string]string{"r/ready": "ready sentence"})
	want := []explain.Condition{
		{Type: "Ready", Status: "True", Reason: "OK", ObservedGeneration: 2,
			Decision: explain.Decision{Rule: "r/ready", Sentence: "ready sentence", From: "Active", Evidence: []conditions.Evidence{{Object: self}}}},
		{Type: "Active", Status: "True", Reason: "OK", ObservedGeneration: 2},
		{Type: "Other", Status: "True", Reason: "X", ObservedGeneration: 2},
	}
	if d := cmp.Diff(want, x.Conditions); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if c := x.Find("Active"); c == nil || c.Reason != "OK" {
		t.Errorf("Find(Active) = %+v", c)
	}
	if c := x.Find("Nope"); c != nil {
		t.Errorf("Find(Nope) = %+v", c)
	}
}

func TestSentences_MapsEveryID(t *testing.T) {
	got := explain.Sentences([]conditions.Rule{{ID: "a/x", Sentence: "one"}, {ID: "b/y", Sentence: "two"}})
	if d := cmp.Diff(map[string]string{"a/x": "one", "b/y": "two"}, got); d != "" {
		t.Error(d)
	}
}

// A condition the inputs cannot decide prints what is missing and no
// rule line; a decided one that lacked an input prints both.
func TestWriteTree_Missing(t *testing.T) {
	x := explain.Object{Kind: "Binding", Namespace: "team-a", Name: "b", Conditions: []explain.Condition{
		{Type: "BackendReachable", Status: "True", Reason: "OK", ObservedGeneration: 1,
			Decision: explain.Decision{Missing: "the card fetch results"}},
		{Type: "ChannelJoined", Decision: explain.Decision{Missing: "the channel look results"}},
		{Type: "CostsResolved", Status: "True", Reason: "Collected", ObservedGeneration: 1,
			Decision: explain.Decision{Rule: "k/kept", Sentence: "kept", Missing: "the collection run",
				Evidence: []conditions.Evidence{{Object: conditions.ObjectRef{}, Facts: []conditions.Fact{conditions.F("now", "t")}}}}},
	}}
	var b bytes.Buffer
	if err := explain.WriteTree(&b, []explain.Object{x, {Kind: "Offering", Name: "o"}}); err != nil {
		t.Fatal(err)
	}
	want := `Binding team-a/b
  BackendReachable=True OK (observedGeneration 1)
    ← missing input: the card fetch results
  ChannelJoined (absent)
    ← missing input: the channel look results
  CostsResolved=True Collected (observedGeneration 1)
    ← missing input: the collection run
    ← rule k/kept: kept
      ← the evaluation's inputs
          now: t

Offering o
  (no conditions)
`
	if d := cmp.Diff(want, b.String()); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// A raw value with line breaks cannot forge lines of the tree.
func TestWriteTree_ValuesStayOnOneLine(t *testing.T) {
	d := explain.Decision{Rule: "r", Sentence: "s", Missing: "a\nb", Evidence: []conditions.Evidence{
		{Object: self, Facts: []conditions.Fact{conditions.F("spec.x", "one\n    ← rule forged: x\r\ttwo")}}}}
	var b bytes.Buffer
	if err := d.WriteTree(&b, "> "); err != nil {
		t.Fatal(err)
	}
	want := "> ← missing input: a b\n" +
		"> ← rule r: s\n" +
		">   ← Subscription team-a/s (uid u-s, generation 2)\n" +
		">       spec.x: one ← rule forged: x two\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestDescribeObject(t *testing.T) {
	for _, tc := range []struct {
		ref  conditions.ObjectRef
		want string
	}{
		{conditions.ObjectRef{}, "the evaluation's inputs"},
		{conditions.ObjectRef{Kind: "PriceBook", Name: "std"}, "PriceBook std"},
		{conditions.ObjectRef{Kind: "Offering", Namespace: "shop", Name: "o", Generation: 3}, "Offering shop/o (generation 3)"},
		{self, "Subscription team-a/s (uid u-s, generation 2)"},
	} {
		if got := explain.DescribeObject(tc.ref); got != tc.want {
			t.Errorf("DescribeObject(%+v) = %q, want %q", tc.ref, got, tc.want)
		}
	}
}

// Decision's fields sit flat in a condition; missing shows only when set.
func TestWriteJSON_Shape(t *testing.T) {
	objs := []explain.Object{{Kind: "Binding", Namespace: "a", Name: "b", Conditions: []explain.Condition{
		{Type: "Accepted", Status: "True", Reason: "OK", ObservedGeneration: 1, Decision: explain.Decision{Rule: "r", Sentence: "s"}},
		{Type: "Ready", Status: "True", Reason: "OK", ObservedGeneration: 1, Decision: explain.Decision{Missing: "m"}},
	}}}
	var b bytes.Buffer
	if err := explain.WriteJSON(&b, objs); err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	cs := got[0]["conditions"].([]any)
	acc, ready := cs[0].(map[string]any), cs[1].(map[string]any)
	if acc["rule"] != "r" || acc["sentence"] != "s" || acc["type"] != "Accepted" {
		t.Errorf("Accepted: %v", acc)
	}
	if _, ok := acc["missing"]; ok {
		t.Errorf("missing printed while empty: %v", acc)
	}
	if ready["missing"] != "m" || ready["rule"] != "" {
		t.Errorf("Ready: %v", ready)
	}
	if !strings.HasPrefix(b.String(), "[\n  {\n    \"kind\": \"Binding\",") {
		t.Errorf("not indented by two spaces:\n%s", b.String())
	}
}

// failWriter fails every write after the first n, counting the calls.
type failWriter struct{ n, calls int }

func (f *failWriter) Write(p []byte) (int, error) {
	f.calls++
	if f.n == 0 {
		return 0, errors.New("disk full")
	}
	f.n--
	return len(p), nil
}

// The first write error is returned and nothing is written after it.
func TestWriteTree_ReturnsTheWriteError(t *testing.T) {
	x := explain.Object{Kind: "Binding", Name: "b", Conditions: []explain.Condition{{Type: "Ready", Decision: explain.Decision{Rule: "r"}}}}
	w := &failWriter{n: 1}
	if err := explain.WriteTree(w, []explain.Object{x}); err == nil || err.Error() != "disk full" {
		t.Fatalf("err %v", err)
	}
	if w.calls != 2 {
		t.Fatalf("%d writes, want 2 (one good, one failed, none after)", w.calls)
	}
	if err := (explain.Decision{Rule: "r"}).WriteTree(&failWriter{}, ""); err == nil {
		t.Fatal("Decision.WriteTree hid the error")
	}
}
