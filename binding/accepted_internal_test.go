package binding

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAccepted_UnknownReasonReadsRejected(t *testing.T) {
	reason, msg := acceptedVerdict([]finding{{"SomethingNew", "spec.x: new check"}})
	assert.Equal(t, ReasonRejected, reason)
	assert.Equal(t, "spec.x: new check", msg)
	// A known reason still names the condition, and the unknown one's
	// problem is listed last.
	reason, msg = acceptedVerdict([]finding{{"SomethingNew", "b"}, {ReasonChannelConflict, "a"}})
	assert.Equal(t, ReasonChannelConflict, reason)
	assert.Equal(t, "a; b", msg)
}

func TestAccepted_ReasonOrderDoesNotDependOnDiscoveryOrder(t *testing.T) {
	fs := []finding{
		{ReasonChannelConflict, "g"}, {ReasonNamespaceNotAllowed, "f"}, {ReasonConnectionRejected, "e"},
		{ReasonConnectionNotFound, "d"}, {ReasonBackendRejected, "c"}, {ReasonBackendNotFound, "b"}, {ReasonInvalidSpec, "a"},
	}
	for i := range len(fs) {
		rot := append(slices.Clone(fs[i:]), fs[:i]...)
		reason, msg := acceptedVerdict(rot)
		assert.Equal(t, ReasonInvalidSpec, reason)
		assert.Equal(t, "a; b; c; d; e; f; g", msg)
	}
	for i, r := range acceptedOrder {
		reason, _ := acceptedVerdict(fs[:len(fs)-i])
		assert.Equal(t, r, reason)
	}
}

func TestAccepted_VocabularyListsEveryReason(t *testing.T) {
	for _, r := range append(acceptedOrder[:], ReasonRejected) {
		_, ok := Vocabulary.Lookup(TypeAccepted, sFalse, r)
		assert.True(t, ok, r)
		_, ok = Vocabulary.Lookup(TypeReady, sFalse, TypeAccepted+":"+r)
		assert.True(t, ok, "Ready derives Accepted:"+r)
	}
}

func TestVocabulary_ReadyPairsDerivedFromTheOthers(t *testing.T) {
	types := Vocabulary.Types()
	want := 2 // OK and the bare Pending
	for _, typ := range types[:3] {
		for _, r := range typ.Reasons {
			if r.Status == sTrue {
				continue
			}
			want++
			got, ok := Vocabulary.Lookup(TypeReady, r.Status, typ.Name+":"+r.Reason)
			assert.True(t, ok, typ.Name+":"+r.Reason)
			assert.Equal(t, r.Status, got.Status)
		}
	}
	assert.Len(t, types[3].Reasons, want)
	for _, typ := range types {
		for _, r := range typ.Reasons {
			assert.NotEmpty(t, r.Meaning, typ.Name+" "+r.Reason)
			assert.NotEmpty(t, r.Action, typ.Name+" "+r.Reason)
		}
	}
}

func TestProbe_EveryNonOKReasonHasAFixedSentence(t *testing.T) {
	for _, typ := range Vocabulary.Types()[1:3] {
		for _, r := range typ.Reasons {
			msg := ProbeMessage(typ.Name, r.Reason)
			switch r.Reason {
			case ReasonOK:
				assert.Empty(t, msg)
			case ReasonPending:
				assert.NotEmpty(t, msg)
			default:
				assert.Regexp(t, "; the operator's log has the cause$", msg, typ.Name+" "+r.Reason)
			}
		}
	}
}
