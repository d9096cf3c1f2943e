package binding

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAccepted_RejectedFindingIsListedLast(t *testing.T) {
	r, msg := acceptedVerdict([]finding{{ruleAcceptedRejected, "spec.x: new check"}})
	assert.Equal(t, ruleAcceptedRejected, r)
	assert.Equal(t, "spec.x: new check", msg)
	// A named reason still names the condition, and the unnamed one's
	// problem is listed last.
	r, msg = acceptedVerdict([]finding{{ruleAcceptedRejected, "b"}, {ruleChannelConflict, "a"}})
	assert.Equal(t, ruleChannelConflict, r)
	assert.Equal(t, "a; b", msg)
}

func TestAccepted_ReasonOrderDoesNotDependOnDiscoveryOrder(t *testing.T) {
	fs := []finding{
		{ruleChannelConflict, "g"}, {ruleNamespaceNotAllowed, "f"}, {ruleConnectionRejected, "e"},
		{ruleConnectionNotFound, "d"}, {ruleBackendRejected, "c"}, {ruleBackendNotFound, "b"}, {ruleInvalidSpec, "a"},
	}
	for i := range len(fs) {
		rot := append(slices.Clone(fs[i:]), fs[:i]...)
		r, msg := acceptedVerdict(rot)
		assert.Equal(t, ruleInvalidSpec, r)
		assert.Equal(t, "a; b; c; d; e; f; g", msg)
	}
	for i := range fs {
		r, _ := acceptedVerdict(fs[:len(fs)-i])
		assert.Equal(t, ruleInvalidSpec+ruleIndex(i), r, "the rule table's order is the reason order")
	}
}

func TestAccepted_VocabularyListsEveryReason(t *testing.T) {
	for r := ruleInvalidSpec; r <= ruleAcceptedRejected; r++ {
		w := rules[r].Writes[0]
		_, ok := Vocabulary.Lookup(TypeAccepted, sFalse, w.Reason)
		assert.True(t, ok, w.Reason)
		_, ok = Vocabulary.Lookup(TypeReady, sFalse, TypeAccepted+":"+w.Reason)
		assert.True(t, ok, "Ready derives Accepted:"+w.Reason)
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
			msg := ProbeMessage(typ.Name, Reason(r.Reason))
			switch r.Reason {
			case string(ReasonOK):
				assert.Empty(t, msg)
			case string(ReasonPending):
				assert.NotEmpty(t, msg)
			default:
				assert.Regexp(t, "; the operator's log has the cause$", msg, typ.Name+" "+r.Reason)
			}
		}
	}
}
