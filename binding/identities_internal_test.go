package binding

import (
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
)

// identitiesByCount is checkIdentities as counts keyed by the strings
// themselves work it out: which objects take part, and why the others
// do not.
func identitiesByCount(s *Snapshot) ([]bool, []ObjectError) {
	n := len(s.Bindings) + len(s.Backends) + len(s.Connections)
	uids := map[types.UID]int{}
	names := map[nameKey]int{}
	for i := range n {
		id := identityAt(s, i)
		if id.uid != "" {
			uids[id.uid]++
		}
		names[nameKey{id.kind, id.ns, id.name}]++
	}
	ok := make([]bool, n)
	var errs []ObjectError
	for i := range n {
		id := identityAt(s, i)
		p := identityProblem(id.ns, id.name, id.uid, id.gen)
		switch {
		case p != "":
		case uids[id.uid] > 1:
			p = "metadata.uid is shared with another object"
		case names[nameKey{id.kind, id.ns, id.name}] > 1:
			p = "another " + id.kind + " has the same namespace and name"
		}
		if p != "" {
			errs = append(errs, ObjectError{Kind: id.kind, Namespace: id.ns, Name: id.name, UID: id.uid, Problem: p})
			continue
		}
		ok[i] = true
	}
	return ok, errs
}

// TestCheckIdentities_IsCountingByStrings holds the identity checks,
// which keep hashes and positions, to counting UIDs and names by their
// strings, on lists drawn from a few namespaces, names and UIDs so that
// they meet often; and again with every hash made one (the mask
// cleared), so that every UID and name meets others of its hash that
// differ from it.
func TestCheckIdentities_IsCountingByStrings(t *testing.T) {
	for _, mask := range []uint64{^uint64(0), 0, 1} {
		rapid.Check(t, func(t *rapid.T) {
			defer func(m uint64) { identityHashMask = m }(identityHashMask)
			identityHashMask = mask
			meta := func(t *rapid.T, label string) metav1.ObjectMeta {
				return metav1.ObjectMeta{
					Namespace:  rapid.SampledFrom([]string{"a", "b", ""}).Draw(t, label+".ns"),
					Name:       rapid.SampledFrom([]string{"x", "y", "z", ""}).Draw(t, label+".name"),
					UID:        types.UID(rapid.SampledFrom([]string{"u1", "u2", "u3", "u4", "u5", ""}).Draw(t, label+".uid")),
					Generation: rapid.Int64Range(-1, 2).Draw(t, label+".gen"),
				}
			}
			var s Snapshot
			for range rapid.IntRange(0, 6).Draw(t, "bindings") {
				s.Bindings = append(s.Bindings, akv1.Binding{ObjectMeta: meta(t, "binding")})
			}
			for range rapid.IntRange(0, 4).Draw(t, "backends") {
				s.Backends = append(s.Backends, akv1.AgentBackend{ObjectMeta: meta(t, "backend")})
			}
			for range rapid.IntRange(0, 4).Draw(t, "connections") {
				s.Connections = append(s.Connections, akv1.ChatConnection{ObjectMeta: meta(t, "connection")})
			}
			var sc scratch
			for pass := range 2 { // the second pass reuses the tables
				checkIdentities(&s, &sc)
				wantOK, wantErrs := identitiesByCount(&s)
				if !slices.Equal(sc.ok, wantOK) {
					t.Fatalf("pass %d: ok = %v, counting by strings gives %v", pass, sc.ok, wantOK)
				}
				if !slices.Equal(sc.idErrors, wantErrs) {
					t.Fatalf("pass %d: errors = %v, counting by strings gives %v", pass, sc.idErrors, wantErrs)
				}
			}
		})
	}
}
