package bindingtest

import (
	"reflect"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
)

// bindingGen draws Bindings as manifests write them, some setting the
// metadata a manifest seldom sets.
func bindingGen() *rapid.Generator[akv1.Binding] {
	str := rapid.SampledFrom([]string{"", "a", "team-a", "chat-0"})
	return rapid.Custom(func(t *rapid.T) akv1.Binding {
		var b akv1.Binding
		b.APIVersion = rapid.SampledFrom([]string{akv1.APIVersion, "", "agentkourier.dev/v1"}).Draw(t, "apiVersion")
		b.Kind = rapid.SampledFrom([]string{akv1.KindBinding, ""}).Draw(t, "kind")
		b.Namespace, b.Name = str.Draw(t, "namespace"), str.Draw(t, "name")
		b.UID = types.UID(str.Draw(t, "uid"))
		b.Generation = rapid.Int64Range(0, 3).Draw(t, "generation")
		if rapid.Bool().Draw(t, "created") {
			b.CreationTimestamp = metav1.NewTime(time.Unix(rapid.Int64Range(0, 1e9).Draw(t, "at"), 0))
		}
		b.Spec.Agent.BackendRef = akv1.Ref{Name: str.Draw(t, "backend"), Namespace: str.Draw(t, "backendNS")}
		b.Spec.Chat = akv1.ChatRef{ConnectionRef: akv1.Ref{Name: str.Draw(t, "conn")}, Channel: str.Draw(t, "channel")}
		for range rapid.IntRange(0, 2).Draw(t, "conditions") {
			b.Status.Conditions = append(b.Status.Conditions, metav1.Condition{Type: str.Draw(t, "type"), Status: "True", Reason: "OK"})
		}
		switch rapid.IntRange(0, 6).Draw(t, "rare") {
		case 1:
			b.Labels = map[string]string{"app": str.Draw(t, "label")}
		case 2:
			b.Finalizers = []string{"x"}
		case 3:
			b.ResourceVersion = "7"
		case 4:
			at := metav1.NewTime(time.Unix(5, 0))
			b.DeletionTimestamp = &at
		case 5:
			b.OwnerReferences = []metav1.OwnerReference{{Name: "o"}}
		case 6:
			b.Annotations = map[string]string{}
		}
		return b
	})
}

// The compact form gives back every Binding as it was, whatever it sets.
func TestProperty_CompactBindingRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := bindingGen().Draw(t, "binding")
		c := compact(&b)
		var got akv1.Binding
		c.expand(&got)
		if !reflect.DeepEqual(got, b) {
			t.Fatalf("compact form changed the Binding:\nwant %#v\ngot  %#v", b, got)
		}
	})
}

// A Binding as genstream and most manifests write it takes the compact
// form, not the whole type.
func TestCompact_UsualBindingIsCompact(t *testing.T) {
	b := akv1.Binding{
		TypeMeta:   metav1.TypeMeta{APIVersion: akv1.APIVersion, Kind: akv1.KindBinding},
		ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "chat", UID: "u1", Generation: 2, CreationTimestamp: metav1.Now()},
		Spec:       akv1.BindingSpec{Chat: akv1.ChatRef{Channel: "C1"}},
		Status:     akv1.BindingStatus{Conditions: []metav1.Condition{{Type: "Ready"}}},
	}
	if c := compact(&b); c.full != nil {
		t.Fatal("a usual Binding was kept whole")
	}
	b.Labels = map[string]string{"a": "b"}
	if c := compact(&b); c.full == nil {
		t.Fatal("a Binding with labels was made compact")
	}
}

func TestBindingChunks_SliceKeepsOrderAcrossBlocks(t *testing.T) {
	var c bindingChunks
	if c.slice() != nil {
		t.Fatal("no Bindings gave a slice")
	}
	n := 2*chunkLen + 3
	for i := range n {
		b := akv1.Binding{ObjectMeta: metav1.ObjectMeta{Generation: int64(i)}}
		c.add(&b)
	}
	got := c.slice()
	if len(got) != n || cap(got) != n {
		t.Fatalf("len %d cap %d, want %d", len(got), cap(got), n)
	}
	for i := range got {
		if got[i].Generation != int64(i) {
			t.Fatalf("position %d holds Binding %d", i, got[i].Generation)
		}
	}
	if c.n != 0 || c.chunks != nil {
		t.Fatal("slice left Bindings behind")
	}
}
