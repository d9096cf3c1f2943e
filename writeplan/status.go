package writeplan

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/condengine/condengine/internal/safejson"
)

// jsonPatchOp is one operation of an RFC 6902 JSON patch.
type jsonPatchOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value any    `json:"value,omitempty"`
}

// removal returns the request that removes, from the conditions as read,
// every type the outcome's list (after) no longer holds and that our
// status apply does not own alone, or nil when there is none. Types only
// our apply owns are left to the apply, which drops them itself.
//
// A type the outcome keeps is removed too when the apply cannot make it
// exact: a zero observedGeneration is left out of an apply body (the
// field is omitted when empty), so a nonzero one another manager wrote
// would survive beside our values. Removing the condition first lets the
// apply write it whole.
//
// For guards the patch with the resourceVersion read (GuardedBody sets
// metadata.resourceVersion, which the API server treats as a
// precondition); it tests each condition's type before removing it, last
// index first so that earlier indexes stay valid.
func removal(obj Object, after []metav1.Condition, manager string) (*Request, error) {
	keep := make(map[string]*metav1.Condition, len(after))
	for i := range after {
		keep[after[i].Type] = &after[i]
	}
	sole := soleApplyOwned(obj.GetManagedFields(), manager)
	read := obj.GetConditions()
	var idx []int
	for i := range read {
		k := keep[read[i].Type]
		leftover := k == nil || (k.ObservedGeneration == 0 && read[i].ObservedGeneration != 0)
		if leftover && !sole[read[i].Type] {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return nil, nil
	}
	rv := obj.GetResourceVersion()
	if rv == "" {
		return nil, errors.New("writeplan: the object read has no resourceVersion, so removing a condition could not be guarded against a newer write")
	}
	var ops []jsonPatchOp
	for j := len(idx) - 1; j >= 0; j-- {
		p := "/status/conditions/" + strconv.Itoa(idx[j])
		ops = append(ops,
			jsonPatchOp{Op: "test", Path: p + "/type", Value: read[idx[j]].Type},
			jsonPatchOp{Op: "remove", Path: p})
	}
	body, err := safejson.Marshal(ops)
	if err != nil {
		return nil, fmt.Errorf("writeplan: %w", err)
	}
	return &Request{
		Step: StepRemoveConditions, Subresource: SubresourceStatus, PatchType: types.JSONPatchType,
		Body: body, FieldManager: manager,
	}, nil
}

// rvPath is where a JSON patch sets its resourceVersion precondition.
const rvPath = "/metadata/resourceVersion"

// applyMeta is the metadata of an apply body: the object's name.
type applyMeta struct {
	Name            string `json:"name"`
	Namespace       string `json:"namespace,omitempty"`
	ResourceVersion string `json:"resourceVersion,omitempty"`
}

// applyBody is the apply body a plan sends: the status of one object.
type applyBody struct {
	APIVersion string                     `json:"apiVersion"`
	Kind       string                     `json:"kind"`
	Metadata   applyMeta                  `json:"metadata"`
	Status     map[string]json.RawMessage `json:"status,omitempty"`
}

// applyStatus returns the server-side apply of status with owned as its
// conditions. The other status fields are the kind's own, written by the
// same controller, so they are applied as the outcome holds them.
//
// For guards it with a resourceVersion: the API server refuses it when
// the object changed since it was read (deleted and made again
// included), so an outcome is never written over an object it was not
// computed for.
func applyStatus(k Kind, obj Object, owned []metav1.Condition, status any, manager string) (Request, error) {
	raw, err := json.Marshal(status)
	if err != nil {
		return Request{}, fmt.Errorf("writeplan: status: %w", err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return Request{}, fmt.Errorf("writeplan: status of %T is not a JSON object", status)
	}
	if owned == nil {
		owned = []metav1.Condition{}
	}
	if fields["conditions"], err = json.Marshal(owned); err != nil {
		return Request{}, fmt.Errorf("writeplan: conditions: %w", err)
	}
	body, err := safejson.Marshal(applyBody{k.APIVersion, k.Kind, applyMeta{Name: obj.GetName(), Namespace: obj.GetNamespace()}, fields})
	if err != nil {
		return Request{}, fmt.Errorf("writeplan: %w", err)
	}
	return Request{
		Step: StepApplyStatus, Subresource: SubresourceStatus, PatchType: types.ApplyPatchType,
		Body: body, FieldManager: manager, Force: true,
	}, nil
}
