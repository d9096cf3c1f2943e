package bindingtest

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
)

// bindingChunks collects Bindings in fixed-size blocks, in the compact
// form below, and hands them back as one akv1.Binding slice of the
// exact length, so a growing slice never holds two copies and unused
// capacity at once, and the whole stream is held at half the size until
// the evaluation needs the engine's type.
type bindingChunks struct {
	chunks [][]compactBinding
	n      int
}

const chunkLen = 4096

func (c *bindingChunks) add(b *akv1.Binding) {
	if len(c.chunks) == 0 || len(c.chunks[len(c.chunks)-1]) == chunkLen {
		c.chunks = append(c.chunks, make([]compactBinding, 0, chunkLen))
	}
	last := &c.chunks[len(c.chunks)-1]
	*last = append(*last, compact(b))
	c.n++
}

// slice returns every Binding added, in order, and empties c.
func (c *bindingChunks) slice() []akv1.Binding {
	if c.n == 0 {
		return nil
	}
	out := make([]akv1.Binding, c.n)
	k := 0
	for i, ch := range c.chunks {
		for j := range ch {
			ch[j].expand(&out[k])
			k++
		}
		c.chunks[i] = nil // free each block as soon as it is laid out
	}
	c.chunks, c.n = nil, 0
	return out
}

// compactBinding is a Binding as a manifest usually writes it: identity,
// creation time, spec and conditions, 192 bytes where akv1.Binding
// takes 368 (most of an ObjectMeta is fields a manifest leaves empty:
// labels, annotations, owner references, finalizers, managed fields). A
// Binding that sets anything else is kept whole in full.
type compactBinding struct {
	full       *akv1.Binding
	namespace  string
	name       string
	uid        types.UID
	generation int64
	created    metav1.Time
	spec       akv1.BindingSpec
	conditions []metav1.Condition
}

// compact returns b's compact form. Whether b fits is decided by
// clearing the fields the form holds and asking whether anything is left,
// so a field added to the type one day is kept, never dropped.
func compact(b *akv1.Binding) compactBinding {
	rest := *b
	rest.TypeMeta = metav1.TypeMeta{} // held only as the constants, below
	rest.Namespace, rest.Name, rest.UID, rest.Generation = "", "", "", 0
	rest.CreationTimestamp = metav1.Time{}
	rest.Spec = akv1.BindingSpec{}
	rest.Status.Conditions = nil
	typed := b.APIVersion == akv1.APIVersion && b.Kind == akv1.KindBinding
	if !typed || !reflect.ValueOf(&rest).Elem().IsZero() {
		full := *b
		return compactBinding{full: &full}
	}
	return compactBinding{namespace: b.Namespace, name: b.Name, uid: b.UID, generation: b.Generation,
		created: b.CreationTimestamp, spec: b.Spec, conditions: b.Status.Conditions}
}

// expand writes the Binding c holds into b.
func (c *compactBinding) expand(b *akv1.Binding) {
	if c.full != nil {
		*b = *c.full
		return
	}
	*b = akv1.Binding{
		TypeMeta: metav1.TypeMeta{APIVersion: akv1.APIVersion, Kind: akv1.KindBinding},
		ObjectMeta: metav1.ObjectMeta{Namespace: c.namespace, Name: c.name, UID: c.uid, Generation: c.generation,
			CreationTimestamp: c.created},
		Spec:   c.spec,
		Status: akv1.BindingStatus{Conditions: c.conditions},
	}
}
