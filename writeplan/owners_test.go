package writeplan_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/writeplan"
)

// entry is a managed-fields entry as the API server records one.
func entry(manager string, op metav1.ManagedFieldsOperationType, sub string, fields *metav1.FieldsV1) metav1.ManagedFieldsEntry {
	return metav1.ManagedFieldsEntry{Manager: manager, Operation: op, Subresource: sub, FieldsV1: fields}
}

// namesDeleting is the fieldsV1 of an entry that owns the Deleting
// condition, as the API server writes it for a list keyed by type.
var namesDeleting = metav1.NewFieldsV1(`{"f:status":{"f:conditions":{".":{},"k:{\"type\":\"Deleting\"}":{".":{},"f:message":{},"f:reason":{},"f:status":{},"f:type":{}}}}}`)

const (
	apply  = metav1.ManagedFieldsOperationApply
	update = metav1.ManagedFieldsOperationUpdate
)

// TestFor_WhoseConditionIsRemoved: a condition type the outcome dropped
// is left to the apply when only our apply to the status names it (the
// apply drops it), and removed first when any other entry names it too,
// or when no entry can be read to own it alone. An entry is ours only
// when all three hold: our manager, an Apply, the status subresource.
func TestFor_WhoseConditionIsRemoved(t *testing.T) {
	ours := entry(ourManager, apply, writeplan.SubresourceStatus, namesDeleting)
	for name, tc := range map[string]struct {
		entries []metav1.ManagedFieldsEntry
		removed bool
	}{
		"only our status apply names it: the apply drops it": {[]metav1.ManagedFieldsEntry{ours}, false},
		"our apply beside an entry that names another type": {[]metav1.ManagedFieldsEntry{ours,
			entry("auditor", update, writeplan.SubresourceStatus, metav1.NewFieldsV1(`{"f:status":{"f:conditions":{"k:{\"type\":\"Audited\"}":{}}}}`))}, false},

		"an update of our manager is not ours":                 {[]metav1.ManagedFieldsEntry{entry(ourManager, update, writeplan.SubresourceStatus, namesDeleting)}, true},
		"our apply to the object, not its status, is not ours": {[]metav1.ManagedFieldsEntry{entry(ourManager, apply, "", namesDeleting)}, true},
		"another manager's status apply is not ours":           {[]metav1.ManagedFieldsEntry{entry("finops-operator-v0", apply, writeplan.SubresourceStatus, namesDeleting)}, true},
		"co-owned with another manager's update":               {[]metav1.ManagedFieldsEntry{ours, entry("kubectl-edit", update, writeplan.SubresourceStatus, namesDeleting)}, true},
		"co-owned, the other entry listed first":               {[]metav1.ManagedFieldsEntry{entry("kubectl-edit", update, writeplan.SubresourceStatus, namesDeleting), ours}, true},

		"no entry at all":                                   {nil, true},
		"our apply entry has no fieldsV1":                   {[]metav1.ManagedFieldsEntry{entry(ourManager, apply, writeplan.SubresourceStatus, nil)}, true},
		"our apply entry's fieldsV1 is not JSON":            {[]metav1.ManagedFieldsEntry{entry(ourManager, apply, writeplan.SubresourceStatus, metav1.NewFieldsV1(`{"f:status":`))}, true},
		"our apply entry's conditions are not an object":    {[]metav1.ManagedFieldsEntry{entry(ourManager, apply, writeplan.SubresourceStatus, metav1.NewFieldsV1(`{"f:status":{"f:conditions":[]}}`))}, true},
		"our apply entry names it by value, not by key":     {[]metav1.ManagedFieldsEntry{entry(ourManager, apply, writeplan.SubresourceStatus, metav1.NewFieldsV1(`{"f:status":{"f:conditions":{"v:{\"type\":\"Deleting\"}":{}}}}`))}, true},
		"our apply entry's key is not JSON":                 {[]metav1.ManagedFieldsEntry{entry(ourManager, apply, writeplan.SubresourceStatus, metav1.NewFieldsV1(`{"f:status":{"f:conditions":{"k:Deleting":{}}}}`))}, true},
		"our apply entry's key has an empty type":           {[]metav1.ManagedFieldsEntry{entry(ourManager, apply, writeplan.SubresourceStatus, metav1.NewFieldsV1(`{"f:status":{"f:conditions":{"k:{\"type\":\"\"}":{}}}}`))}, true},
		"an unreadable entry of another manager is ignored": {[]metav1.ManagedFieldsEntry{ours, entry("kubectl-edit", update, writeplan.SubresourceStatus, metav1.NewFieldsV1(`not json`))}, false},
	} {
		t.Run(name, func(t *testing.T) {
			read := subscription([]metav1.Condition{
				{Type: "Ready", Status: metav1.ConditionTrue, Reason: "OK", LastTransitionTime: metav1.Unix(1_700_000_000, 0)},
				{Type: "Deleting", Status: metav1.ConditionTrue, Reason: "OK", LastTransitionTime: metav1.Unix(1_700_000_000, 0)},
			}, nil)
			read.ResourceVersion = "7"
			read.ManagedFields = tc.entries
			ready := read.Status.Conditions[0]
			o := &conditions.Outcome{Kind: finopsv1.KindSubscription, Namespace: read.Namespace, Name: read.Name, Write: true,
				Conditions: []metav1.Condition{ready}, Owned: []metav1.Condition{ready}}
			p, err := writeplan.For(read, o, read.Status, finopsWriter)
			require.NoError(t, err)
			if !tc.removed {
				require.Len(t, p.Requests, 1, bodies(p))
				assert.Equal(t, writeplan.StepApplyStatus, p.Requests[0].Step)
				return
			}
			require.Len(t, p.Requests, 2, bodies(p))
			assert.Equal(t, writeplan.StepRemoveConditions, p.Requests[0].Step)
			assert.JSONEq(t, `[{"op":"replace","path":"/metadata/resourceVersion","value":"7"},{"op":"test","path":"/status/conditions/1/type","value":"Deleting"},{"op":"remove","path":"/status/conditions/1"}]`,
				string(p.Requests[0].Body), "only Deleting, which the outcome dropped, is removed")
		})
	}
}
