package writeplan

import (
	"encoding/json"
	"errors"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/internal/safejson"
)

// Object is the object as the host read it: its metadata (name,
// resourceVersion, finalizers, managedFields) and its status conditions.
// Every API type of the module satisfies it.
type Object interface {
	metav1.Object
	GetConditions() []metav1.Condition
}

// Options name the writer and the kind a plan is made for. Both are
// required: a host declares one Options per kind it writes and passes it
// to every For of that kind.
//
//	var databaseWrites = writeplan.Options{
//		FieldManager: "database-operator",
//		Kind:         writeplan.Kind{APIVersion: examplev1.APIVersion, Kind: "Database", Finalizer: examplev1.DatabaseFinalizer},
//	}
type Options struct {
	// FieldManager is the field manager of every request; our conditions
	// are the ones it applies to the status subresource.
	FieldManager string
	// Kind is the kind of the objects planned for.
	Kind Kind
}

// Step says what a request is for. The set is closed; a plan lists its
// requests in the order below.
type Step string

// The steps, in the order they are carried out.
const (
	// StepRemoveConditions removes conditions of our types the outcome
	// no longer holds and that an apply alone would leave behind, because
	// another manager (an older writer's update, a kubectl edit) also owns
	// them. It is guarded by the resourceVersion read.
	StepRemoveConditions Step = "RemoveConditions"
	// StepApplyStatus server-side applies the status the outcome computed,
	// with exactly the outcome's Owned conditions, under our field
	// manager.
	StepApplyStatus Step = "ApplyStatus"
	// StepAddFinalizer adds the kind's finalizer: a JSON patch that
	// appends it to the finalizers read, leaving every other one as it is.
	StepAddFinalizer Step = "AddFinalizer"
	// StepRemoveFinalizer removes the kind's finalizer. It comes after the
	// status write: once the last finalizer of a deleted object is gone
	// the object is gone, and a status write after it would fail.
	StepRemoveFinalizer Step = "RemoveFinalizer"
)

// SubresourceStatus is the Subresource of a request to the status
// subresource.
const SubresourceStatus = "status"

// Request is one write to the API server, as data. Every request is an
// HTTP PATCH of the object named by the plan; a host turns it into its
// client's call (controller-runtime: client.RawPatch(PatchType, Body),
// through Status() when Subresource is "status", with FieldOwner and,
// when Force is set, ForceOwnership).
type Request struct {
	// Step is what the request is for.
	Step Step
	// Subresource is "" for the object itself or SubresourceStatus.
	Subresource string
	// PatchType is the body's content type: server-side apply or JSON
	// patch.
	PatchType types.PatchType
	// Body is the patch, JSON that a YAML reader (an API server reads an
	// apply body as YAML) reads as the same value: every character such
	// a reader refuses or reads otherwise (DEL, the C1 controls, …) is
	// written as a \u escape, so the text written is the object's own,
	// whatever it holds.
	Body []byte
	// FieldManager is the fieldManager query parameter.
	FieldManager string
	// Force is the force query parameter of a server-side apply.
	Force bool
	// ResourceVersion, when not empty, is the precondition: the request
	// must fail with a conflict if the object's resourceVersion is no
	// longer this one. The body already carries it, so a host that sends
	// Body as it is gets the guard without doing anything.
	ResourceVersion string
	// AfterPrevious marks every request of a plan but the first: it is
	// guarded by the resourceVersion the previous request's response
	// carried, which no plan can know beforehand. Its Body carries no
	// resourceVersion; a host sends GuardedBody(that resourceVersion)
	// instead, so no request of a plan lands on an object someone else
	// changed since the host read it or since the plan's own last write.
	AfterPrevious bool
}

// GuardedBody returns the request's body guarded by resourceVersion: the
// API server refuses it with a conflict when the object's
// resourceVersion is no longer that one. An empty resourceVersion gives
// the body unchanged; a guarded body is escaped as Body is.
func (r Request) GuardedBody(resourceVersion string) ([]byte, error) {
	if resourceVersion == "" {
		return r.Body, nil
	}
	switch r.PatchType {
	case types.ApplyPatchType:
		var b applyBody
		if err := json.Unmarshal(r.Body, &b); err != nil {
			return nil, fmt.Errorf("writeplan: %s body: %w", r.Step, err)
		}
		b.Metadata.ResourceVersion = resourceVersion
		return safejson.Marshal(b)
	case types.JSONPatchType:
		var ops []jsonPatchOp
		if err := json.Unmarshal(r.Body, &ops); err != nil {
			return nil, fmt.Errorf("writeplan: %s body: %w", r.Step, err)
		}
		if len(ops) > 0 && ops[0].Op == "replace" && ops[0].Path == rvPath {
			ops = ops[1:]
		}
		return safejson.Marshal(append([]jsonPatchOp{{Op: "replace", Path: rvPath, Value: resourceVersion}}, ops...))
	}
	return nil, fmt.Errorf("writeplan: %s: patch type %q", r.Step, r.PatchType)
}

// Plan is the ordered list of requests that make the stored object what
// an outcome decided. An empty plan writes nothing.
type Plan struct {
	// Kind, Namespace and Name name the object every request is for.
	Kind      string
	Namespace string
	Name      string
	// Requests are carried out in order; when one fails, the host stops,
	// reads the object again and makes a new plan.
	Requests []Request
}

// Empty reports that the plan writes nothing.
func (p Plan) Empty() bool { return len(p.Requests) == 0 }

// ErrNoFieldManager is returned when Options.FieldManager is empty.
var ErrNoFieldManager = errors.New("writeplan: Options.FieldManager is empty")

// For returns the requests that make the stored object equal the
// outcome o computed for obj: status holds exactly o.Owned as our
// conditions beside every other writer's conditions, untouched, and the
// kind's finalizer (opts.Kind.Finalizer) is added or removed as
// o.Finalizer says. status is the kind's status from the same outcome
// (for example a binding.Outcome's Status); its conditions are ignored,
// o.Owned is written in their place.
//
// Nothing is written for the status unless o.Write is set. For fails on
// Options without a field manager or a kind, on a nil outcome or status,
// on an outcome of another kind than opts.Kind or for another object
// than obj, and on a finalizer change for a kind declared without a
// finalizer.
func For(obj Object, o *conditions.Outcome, status any, opts Options) (Plan, error) {
	if opts.FieldManager == "" {
		return Plan{}, ErrNoFieldManager
	}
	k := opts.Kind
	if err := k.check(); err != nil {
		return Plan{}, err
	}
	if obj == nil || o == nil {
		return Plan{}, errors.New("writeplan: nil object or outcome")
	}
	if o.Kind != k.Kind {
		return Plan{}, fmt.Errorf("writeplan: the outcome is for kind %q and Options.Kind.Kind is %q", o.Kind, k.Kind)
	}
	if obj.GetNamespace() != o.Namespace || obj.GetName() != o.Name || (o.UID != "" && obj.GetUID() != "" && obj.GetUID() != o.UID) {
		return Plan{}, fmt.Errorf("writeplan: the outcome is for %s %s/%s, the object read is %s/%s",
			o.Kind, o.Namespace, o.Name, obj.GetNamespace(), obj.GetName())
	}
	p := Plan{Kind: o.Kind, Namespace: o.Namespace, Name: o.Name}
	if o.Write {
		if status == nil {
			return Plan{}, errors.New("writeplan: nil status for an outcome that writes")
		}
		rm, err := removal(obj, o.Conditions, opts.FieldManager)
		if err != nil {
			return Plan{}, err
		}
		if rm != nil {
			p.Requests = append(p.Requests, *rm)
		}
		ap, err := applyStatus(k, obj, o.Owned, status, opts.FieldManager)
		if err != nil {
			return Plan{}, err
		}
		p.Requests = append(p.Requests, ap)
	}
	fin, err := finalizer(k, obj, o.Finalizer, opts.FieldManager)
	if err != nil {
		return Plan{}, err
	}
	if fin != nil {
		p.Requests = append(p.Requests, *fin)
	}
	return p, guard(p.Requests, obj.GetResourceVersion())
}

// guard makes the first request carry the resourceVersion read and
// marks every later one AfterPrevious. An object read without a
// resourceVersion (one built in memory) gives an unguarded first request.
func guard(rs []Request, rv string) error {
	for i := range rs {
		if i > 0 {
			rs[i].AfterPrevious = true
			continue
		}
		body, err := rs[i].GuardedBody(rv)
		if err != nil {
			return err
		}
		rs[i].Body, rs[i].ResourceVersion = body, rv
	}
	return nil
}
