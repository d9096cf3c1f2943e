package hostcheck

import (
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func traceObj(kind, ns, name, rv string, spec map[string]any) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{"spec": spec}}
	u.SetKind(kind)
	u.SetNamespace(ns)
	u.SetName(name)
	u.SetResourceVersion(rv)
	u.SetGeneration(1)
	return u
}

// An edit reads as the objects it changed, by name, with a diff of the
// spec; a creation and a deletion name their object.
func TestDescribeChange_NamesObjectsAndDiffsTheSpec(t *testing.T) {
	a := traceObj("Binding", "team-h", "chat-0", "1", map[string]any{"chat": map[string]any{"channel": "C1"}, "agent": map[string]any{"backendRef": map[string]any{"name": "echo"}}})
	b := a.DeepCopy()
	b.SetResourceVersion("2")
	b.SetGeneration(2)
	if err := unstructured.SetNestedField(b.Object, "C2", "spec", "chat", "channel"); err != nil {
		t.Fatal(err)
	}
	gone := traceObj("AgentBackend", "team-h", "echo", "1", map[string]any{"url": "https://x"})
	born := traceObj("Binding", "team-h", "new-1", "3", map[string]any{"chat": map[string]any{"channel": "C3"}})
	got := describeChange([]*unstructured.Unstructured{gone, a}, []*unstructured.Unstructured{b, born})
	want := []string{
		`Binding team-h/chat-0: spec.chat.channel "C1" → "C2"; generation 1 → 2`,
		`Binding team-h/new-1 is created (spec.chat.channel="C3")`,
		`AgentBackend team-h/echo is deleted`,
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A status change by another writer reads as the conditions it changed.
func TestDescribeChange_Conditions(t *testing.T) {
	a := traceObj("Binding", "team-h", "chat-0", "1", nil)
	b := a.DeepCopy()
	b.SetResourceVersion("2")
	conds := []any{map[string]any{"type": "Ready", "status": "False", "reason": "EditedByHand", "observedGeneration": int64(1), "lastTransitionTime": metav1.Now().UTC().Format("2006-01-02T15:04:05Z")}}
	if err := unstructured.SetNestedSlice(b.Object, conds, "status", "conditions"); err != nil {
		t.Fatal(err)
	}
	got := describeChange([]*unstructured.Unstructured{a}, []*unstructured.Unstructured{b})
	if want := []string{"Binding team-h/chat-0: condition Ready written False/EditedByHand@1"}; !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// An edit's numbered line loses the object's index once its change is
// known; several changes go on lines of their own.
func TestNameEdit(t *testing.T) {
	r := &run{trace: []string{"  3. [10:00:00] a user edits object #5 (variant 7)", "     after"}}
	r.nameEdit(0, []string{`Binding team-h/chat-0: spec.chat.channel "C1" → "C2"`})
	if want := []string{`  3. [10:00:00] a user edits: Binding team-h/chat-0: spec.chat.channel "C1" → "C2"`, "     after"}; !slices.Equal(r.trace, want) {
		t.Fatalf("got %q", r.trace)
	}
	r = &run{trace: []string{"  4. [10:00:00] 20s later, a person edits one of our conditions with kubectl edit on the contested object #2; the leader catches up and reconciles it"}}
	r.nameEdit(0, []string{"x", "y"})
	if want := []string{"  4. [10:00:00] 20s later, a person edits one of our conditions with kubectl edit; the leader catches up and reconciles it", "       x", "       y"}; !slices.Equal(r.trace, want) {
		t.Fatalf("got %q", r.trace)
	}
	r = &run{trace: []string{"  2. [10:00:00] a user creates an object (variant 3)"}}
	r.nameEdit(0, []string{"Binding team-h/new-1 is created"})
	if want := "  2. [10:00:00] a user creates an object: Binding team-h/new-1 is created"; r.trace[0] != want {
		t.Fatalf("got %q", r.trace[0])
	}
	r = &run{trace: []string{"  1. [10:00:00] a user deletes object #3"}}
	r.nameEdit(0, nil)
	if want := "  1. [10:00:00] a user deletes: no object changed"; r.trace[0] != want {
		t.Fatalf("got %q", r.trace[0])
	}
}

// Reconciles that wrote nothing fold into one line per burst and
// replica; a reconcile whose writes or errors follow keeps its line.
func TestFoldReconciles(t *testing.T) {
	in := []string{
		"  1. [10:00:00] replica 0 reconciles its next due request",
		"     replica 0 reconciles a/x",
		"     replica 0 reconciles a/y",
		"     replica 0 reconciles a/z",
		"     replica 0: status apply of Binding a/z at resourceVersion 3",
		"     replica 0 reconciles b/x",
		"     replica 1 reconciles b/y",
		"     replica 1 reconciles b/z",
		"---- the status is settled",
	}
	want := []string{
		"  1. [10:00:00] replica 0 reconciles its next due request",
		"     replica 0 reconciles a/x, a/y (2 requests, nothing written)",
		"     replica 0 reconciles a/z",
		"     replica 0: status apply of Binding a/z at resourceVersion 3",
		"     replica 0 reconciles b/x",
		"     replica 1 reconciles b/y, b/z (2 requests, nothing written)",
		"---- the status is settled",
	}
	if got := foldReconciles(in); !slices.Equal(got, want) {
		t.Fatalf("got\n%s", strings.Join(got, "\n"))
	}
}
