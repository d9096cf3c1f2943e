package writeplan

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/types"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/internal/article"
	"github.com/condengine/condengine/internal/safejson"
)

// finalizer returns the request that carries out action on the
// finalizer k declares, or nil when there is nothing to do: keep, an add when the
// object has it, a removal when it does not.
//
// Both are JSON patches of metadata.finalizers, guarded like every
// request of a plan by a resourceVersion, so a list that changed since
// the read fails the request rather than losing someone else's
// finalizer. An add appends to the list read (or sets it when it was
// empty); a removal also tests the finalizer at the index read. An add is
// not a server-side apply: on controller-runtime's fake client an apply
// to the object makes our field manager co-own every status field
// stored, other controllers' conditions included, which no real API
// server does and which a test would then read as taking them over.
func finalizer(k Kind, obj Object, action conditions.FinalizerAction, manager string) (*Request, error) {
	if action == conditions.FinalizerKeep {
		return nil, nil
	}
	if k.Finalizer == "" {
		return nil, fmt.Errorf("writeplan: the outcome asks to %s a finalizer and %s has none (Options.Kind.Finalizer is empty)", strings.ToLower(string(action)), article.A(k.Kind))
	}
	at := slices.Index(obj.GetFinalizers(), k.Finalizer)
	switch action {
	case conditions.FinalizerAdd:
		if at >= 0 {
			return nil, nil
		}
		op := jsonPatchOp{Op: "add", Path: "/metadata/finalizers/-", Value: k.Finalizer}
		if len(obj.GetFinalizers()) == 0 {
			op = jsonPatchOp{Op: "add", Path: "/metadata/finalizers", Value: []string{k.Finalizer}}
		}
		body, err := safejson.Marshal([]jsonPatchOp{op})
		if err != nil {
			return nil, fmt.Errorf("writeplan: %w", err)
		}
		return &Request{Step: StepAddFinalizer, PatchType: types.JSONPatchType, Body: body, FieldManager: manager}, nil
	case conditions.FinalizerRemove:
		if at < 0 {
			return nil, nil
		}
		p := "/metadata/finalizers/" + strconv.Itoa(at)
		body, err := safejson.Marshal([]jsonPatchOp{{Op: "test", Path: p, Value: k.Finalizer}, {Op: "remove", Path: p}})
		if err != nil {
			return nil, fmt.Errorf("writeplan: %w", err)
		}
		return &Request{Step: StepRemoveFinalizer, PatchType: types.JSONPatchType, Body: body, FieldManager: manager}, nil
	}
	return nil, fmt.Errorf("writeplan: unknown finalizer action %q", action)
}
