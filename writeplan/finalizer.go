package writeplan

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"k8s.io/apimachinery/pkg/types"

	"github.com/condengine/condengine/conditions"
)

// finalizer returns the request that carries out action on the kind's
// finalizer, or nil when there is nothing to do: keep, an add when the
// object has it, a removal when it does not.
//
// An add is a server-side apply of metadata.finalizers, a set, so no
// other finalizer is touched and a concurrent add by someone else merges.
// A removal is a JSON patch that tests the finalizer at the index read
// before removing it, so a list that changed meanwhile fails the request
// rather than losing someone else's finalizer.
func finalizer(k kind, obj Object, action conditions.FinalizerAction, manager string) (*Request, error) {
	if action == conditions.FinalizerKeep {
		return nil, nil
	}
	if k.finalizer == "" {
		return nil, fmt.Errorf("writeplan: the outcome asks to %s a finalizer and a %s has none", action, k.kind)
	}
	at := slices.Index(obj.GetFinalizers(), k.finalizer)
	switch action {
	case conditions.FinalizerAdd:
		if at >= 0 {
			return nil, nil
		}
		body, err := json.Marshal(applyBody{APIVersion: k.apiVersion, Kind: k.kind,
			Metadata: applyMeta{Name: obj.GetName(), Namespace: obj.GetNamespace(), Finalizers: []string{k.finalizer}}})
		if err != nil {
			return nil, fmt.Errorf("writeplan: %w", err)
		}
		return &Request{Step: StepAddFinalizer, PatchType: types.ApplyPatchType, Body: body, FieldManager: manager, Force: true}, nil
	case conditions.FinalizerRemove:
		if at < 0 {
			return nil, nil
		}
		p := "/metadata/finalizers/" + strconv.Itoa(at)
		body, err := json.Marshal([]jsonPatchOp{{Op: "test", Path: p, Value: k.finalizer}, {Op: "remove", Path: p}})
		if err != nil {
			return nil, fmt.Errorf("writeplan: %w", err)
		}
		return &Request{Step: StepRemoveFinalizer, PatchType: types.JSONPatchType, Body: body, FieldManager: manager}, nil
	}
	return nil, fmt.Errorf("writeplan: unknown finalizer action %q", action)
}
