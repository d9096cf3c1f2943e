package explain_test

import (
	"os"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/explain"
)

// The conditions of one outcome, paired with the provenance its Explain
// returned, printed as a tree.
func Example() {
	self := conditions.ObjectRef{Kind: "Binding", Namespace: "team-a", Name: "late", UID: "u-late", Generation: 1}
	holder := conditions.ObjectRef{Kind: "Binding", Namespace: "team-b", Name: "support", UID: "u-support", Generation: 1}
	conds := []metav1.Condition{
		{Type: "Accepted", Status: metav1.ConditionFalse, Reason: "ChannelConflict", ObservedGeneration: 1},
		{Type: "Ready", Status: metav1.ConditionFalse, Reason: "Accepted:ChannelConflict", ObservedGeneration: 1},
	}
	prov := []conditions.Provenance{
		{Type: "Accepted", Rule: "binding/accepted/channel-conflict", Evidence: []conditions.Evidence{
			{Object: self, Facts: []conditions.Fact{conditions.F("metadata.creationTimestamp", "2026-11-30T09:59:00Z")}},
			{Object: holder, Facts: []conditions.Fact{conditions.F("metadata.creationTimestamp", "2026-11-30T09:00:00Z")}},
		}},
		{Type: "Ready", Rule: "binding/ready/from-accepted", From: "Accepted", Evidence: []conditions.Evidence{
			{Object: self, Facts: []conditions.Fact{conditions.F("status.conditions[Accepted]", "ChannelConflict")}},
		}},
	}
	sentences := explain.Sentences([]conditions.Rule{
		{ID: "binding/accepted/channel-conflict", Sentence: "an older Binding holds the channel"},
		{ID: "binding/ready/from-accepted", Sentence: "Ready carries Accepted's status"},
	})
	obj := explain.NewObject("Binding", "team-a", "late", conds, prov, sentences)
	if err := explain.WriteTree(os.Stdout, []explain.Object{obj}); err != nil {
		panic(err)
	}
	// Output:
	// Binding team-a/late
	//   Accepted=False ChannelConflict (observedGeneration 1)
	//     ← rule binding/accepted/channel-conflict: an older Binding holds the channel
	//       ← Binding team-a/late (uid u-late, generation 1)
	//           metadata.creationTimestamp: 2026-11-30T09:59:00Z
	//       ← Binding team-b/support (uid u-support, generation 1)
	//           metadata.creationTimestamp: 2026-11-30T09:00:00Z
	//   Ready=False Accepted:ChannelConflict (observedGeneration 1)
	//     ← derived from Accepted
	//     ← rule binding/ready/from-accepted: Ready carries Accepted's status
	//       ← Binding team-a/late (uid u-late, generation 1)
	//           status.conditions[Accepted]: ChannelConflict
}
