package bindingtest

import (
	"slices"
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
)

// A large manifest stream is held once, as typed objects, while the
// engine evaluates it; the interner, and the compact chunks of
// chunks.go, keep that copy small, and the command's memory budget
// keeps the collector close to what is live. The peak is reached inside
// the evaluation (docs/limits.md); the reader itself holds one document.
//
// What each bought was measured on 2026-12-01 with `eval -o yaml` of
// genstream's 100,000 Bindings over 1,000 namespaces (53 MB), peak
// resident set from /usr/bin/time over the input: 4.15x before; 3.03x
// once outcomes were taken one at a time (binding.EvaluateEach) and
// condition lists shared; 2.49x with the compact chunks; 1.86x with the
// budget at 1.6 times the input. The string interner pays for itself
// because the decoder allocates every namespace, reference name and
// condition string anew for each Binding (without it the peak was 6%
// higher before these changes).

// interner shares the strings that repeat across thousands of Bindings
// (namespaces, reference names, condition types, statuses and reasons),
// which the JSON decoder allocates anew for each occurrence, and whole
// condition lists: the lists read, and the lists the engine computes,
// which are alike wherever Bindings are in the same state and were
// stamped at the same instant (a stream of 100,000 such Bindings holds
// one list instead of 100,000 of 384 bytes). A shared list is never
// written to: eval replaces a Binding's list, never edits it, and the
// engine does not modify its snapshot.
type interner struct {
	strs  map[string]string
	lists map[string][]metav1.Condition
	key   []byte // scratch for listKey
}

func newInterner() *interner {
	return &interner{strs: map[string]string{}, lists: map[string][]metav1.Condition{}}
}

// maxInterned bounds each table, so a stream of unique values cannot
// make it grow without end.
const maxInterned = 1 << 16

func (in *interner) str(s *string) {
	if *s == "" {
		return
	}
	if v, ok := in.strs[*s]; ok {
		*s = v
		return
	}
	if len(in.strs) < maxInterned {
		in.strs[*s] = *s
	}
}

func (in *interner) binding(b *akv1.Binding) {
	in.str(&b.Namespace)
	in.str(&b.APIVersion)
	in.str(&b.Kind)
	in.str(&b.Spec.Agent.BackendRef.Name)
	in.str(&b.Spec.Agent.BackendRef.Namespace)
	in.str(&b.Spec.Chat.ConnectionRef.Name)
	in.str(&b.Spec.Chat.ConnectionRef.Namespace)
	b.Status.Conditions = in.conditions(b.Status.Conditions)
}

// conditions returns the list kept for conds' value, keeping conds (its
// strings shared, its capacity cut to its length, so that no append can
// write into a list another Binding holds) when it is the first of its
// value.
func (in *interner) conditions(conds []metav1.Condition) []metav1.Condition {
	if len(conds) == 0 {
		return conds
	}
	in.key = listKey(in.key[:0], conds)
	if v, ok := in.lists[string(in.key)]; ok {
		return v
	}
	for i := range conds {
		c := &conds[i]
		in.str(&c.Type)
		st := string(c.Status)
		in.str(&st)
		c.Status = metav1.ConditionStatus(st)
		in.str(&c.Reason)
		in.str(&c.Message)
	}
	conds = slices.Clip(conds)
	if len(in.lists) < maxInterned {
		in.lists[string(in.key)] = conds
	}
	return conds
}

// listKey appends to b every field of every condition, each string with
// its length before it, so that two lists have one key only if no
// output, or the engine, can tell them apart. A time is its instant and
// its location's name.
func listKey(b []byte, conds []metav1.Condition) []byte {
	str := func(s string) {
		b = strconv.AppendInt(b, int64(len(s)), 10)
		b = append(b, ':')
		b = append(b, s...)
	}
	for i := range conds {
		c := &conds[i]
		str(c.Type)
		str(string(c.Status))
		str(c.Reason)
		str(c.Message)
		b = strconv.AppendInt(b, c.ObservedGeneration, 10)
		b = append(b, ',')
		t := c.LastTransitionTime.Time
		b = strconv.AppendInt(b, t.Unix(), 10)
		b = append(b, '.')
		b = strconv.AppendInt(b, int64(t.Nanosecond()), 10)
		b = append(b, ',')
		str(t.Location().String())
	}
	return b
}
