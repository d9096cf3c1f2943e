package manifest

import (
	"hash/fnv"
	"io"
	"testing"

	"pgregory.net/rapid"
)

// identityKeyByFNV is identityKey as hash/fnv works it out.
func identityKeyByFNV(h *Header) [16]byte {
	f := fnv.New128a()
	for _, part := range []string{h.Group(), h.Kind, h.Metadata.Namespace, h.Metadata.Name} {
		_, _ = io.WriteString(f, part)
		_, _ = f.Write([]byte{0})
	}
	var k [16]byte
	f.Sum(k[:0])
	return k
}

// TestIdentityKey_IsFNV128a holds the hand-written hash to hash/fnv's
// 128-bit FNV-1a on any identity.
func TestIdentityKey_IsFNV128a(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var h Header
		h.APIVersion = rapid.StringMatching(`([a-z.]{0,12}/)?v[0-9a-z]{0,4}`).Draw(t, "apiVersion")
		h.Kind = rapid.String().Draw(t, "kind")
		h.Metadata.Namespace = rapid.String().Draw(t, "namespace")
		h.Metadata.Name = rapid.String().Draw(t, "name")
		if got, want := identityKey(&h), identityKeyByFNV(&h); got != want {
			t.Fatalf("identityKey = %x, hash/fnv gives %x", got, want)
		}
	})
}

// TestIdentityKey_AllocatesNothing keeps identities off the heap: one is
// worked out for every object read.
func TestIdentityKey_AllocatesNothing(t *testing.T) {
	h := Header{APIVersion: "agents.kourier.io/v1alpha1", Kind: "Binding"}
	h.Metadata.Namespace, h.Metadata.Name = "ns", "name"
	if n := testing.AllocsPerRun(100, func() { _ = identityKey(&h) }); n != 0 {
		t.Fatalf("identityKey allocates %v times", n)
	}
}
