package writeplan_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/yaml"

	"github.com/condengine/condengine/config/crd"
	"github.com/condengine/condengine/writeplan"
)

// store keeps one object the way the API server does for a custom
// resource: managed fields kept by apimachinery's field manager over the
// embedded CRDs' schemas, a request to the status subresource changing
// only status and one to the object leaving status alone, a
// resourceVersion in a request's body treated as a precondition, an apply
// body read as YAML, and an
// object whose deletion was asked gone once its last finalizer is.
type store struct {
	main, status *managedfields.FieldManager
	live         *unstructured.Unstructured // nil once deleted
	rv           int
	log          []writeplan.Step
	// answered is the resourceVersion the last request carried out left:
	// what a host's previous response told it.
	answered string
}

var errConflict = errors.New("conflict: the object has been modified")
var errNotFound = errors.New("not found")

type noConversion struct{}

func (noConversion) Convert(in, out, _ any) error { return errors.New("no conversion") }
func (noConversion) ConvertToVersion(in runtime.Object, _ runtime.GroupVersioner) (runtime.Object, error) {
	return in, nil
}
func (noConversion) ConvertFieldLabel(_ schema.GroupVersionKind, l, v string) (string, string, error) {
	return l, v, nil
}

type noDefaults struct{}

func (noDefaults) Default(runtime.Object) {}

type creater struct{}

func (creater) New(gvk schema.GroupVersionKind) (runtime.Object, error) {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetGroupVersionKind(gvk)
	return u, nil
}

func newStore(gvk schema.GroupVersionKind) (*store, error) {
	tc, err := crd.TypeConverter()
	if err != nil {
		return nil, err
	}
	return newStoreWith(tc, gvk)
}

// newStoreWith is a store of a kind tc knows: one of another module's.
func newStoreWith(tc managedfields.TypeConverter, gvk schema.GroupVersionKind) (*store, error) {
	var err error
	s := &store{}
	for sub, fm := range map[string]**managedfields.FieldManager{"": &s.main, "status": &s.status} {
		*fm, err = managedfields.NewDefaultCRDFieldManager(tc, noConversion{}, noDefaults{}, creater{}, gvk, gvk.GroupVersion(), sub, nil)
		if err != nil {
			return nil, err
		}
	}
	return s, nil
}

// create stores obj as an update by manager would create it.
func (s *store) create(obj *unstructured.Unstructured, manager string) error {
	empty, _ := creater{}.New(obj.GroupVersionKind())
	out, err := s.main.Update(empty, obj.DeepCopy(), manager)
	if err != nil {
		return err
	}
	s.live = out.(*unstructured.Unstructured)
	s.live.SetUID("uid-1")
	s.bump()
	return nil
}

func (s *store) bump() {
	s.rv++
	s.live.SetResourceVersion(strconv.Itoa(s.rv))
}

// get returns a copy of the object, nil once deleted.
func (s *store) get() *unstructured.Unstructured {
	if s.live == nil {
		return nil
	}
	return s.live.DeepCopy()
}

// update is a PUT by manager of obj to the object or its status.
func (s *store) update(obj *unstructured.Unstructured, manager, sub string) error {
	if s.live == nil {
		return errNotFound
	}
	if rv := obj.GetResourceVersion(); rv != "" && rv != s.live.GetResourceVersion() {
		return errConflict
	}
	next := s.strategy(obj.DeepCopy(), sub)
	fm := s.main
	if sub == "status" {
		fm = s.status
	}
	out, err := fm.Update(s.live, next, manager)
	if err != nil {
		return err
	}
	return s.commit(out.(*unstructured.Unstructured))
}

// strategy keeps what a request to sub may not change: everything but
// status for the status subresource, status for the object.
func (s *store) strategy(next *unstructured.Unstructured, sub string) *unstructured.Unstructured {
	old := s.live.DeepCopy()
	if sub == "status" {
		st, ok := next.Object["status"]
		if ok {
			old.Object["status"] = st
		} else {
			delete(old.Object, "status")
		}
		old.SetManagedFields(next.GetManagedFields())
		return old
	}
	if st, ok := old.Object["status"]; ok {
		next.Object["status"] = st
	} else {
		delete(next.Object, "status")
	}
	next.SetUID(old.GetUID())
	next.SetDeletionTimestamp(old.GetDeletionTimestamp())
	return next
}

func (s *store) commit(out *unstructured.Unstructured) error {
	s.live = out
	s.bump()
	if s.live.GetDeletionTimestamp() != nil && len(s.live.GetFinalizers()) == 0 {
		s.live = nil
	}
	return nil
}

// carry carries out one request of a plan.
func (s *store) carry(r writeplan.Request) error {
	if s.live == nil {
		return errNotFound
	}
	s.log = append(s.log, r.Step)
	if r.AfterPrevious {
		// As a host does: the guard is the resourceVersion the previous
		// request's response carried.
		body, err := r.GuardedBody(s.answered)
		if err != nil {
			return err
		}
		r.Body = body
	}
	if err := s.carryOne(r); err != nil {
		return err
	}
	if s.live != nil {
		s.answered = s.live.GetResourceVersion()
	}
	return nil
}

func (s *store) carryOne(r writeplan.Request) error {
	switch r.PatchType {
	case types.ApplyPatchType:
		// An API server reads an apply body as YAML (JSON is YAML), with
		// sigs.k8s.io/yaml: a character its reader refuses fails the
		// request.
		applied := &unstructured.Unstructured{}
		if err := yaml.Unmarshal(r.Body, &applied.Object); err != nil {
			return err
		}
		if rv := applied.GetResourceVersion(); rv != "" && rv != s.live.GetResourceVersion() {
			return errConflict
		}
		fm := s.main
		if r.Subresource == "status" {
			fm = s.status
		}
		out, err := fm.Apply(s.live, applied, r.FieldManager, r.Force)
		if err != nil {
			return err
		}
		return s.commit(s.keep(out.(*unstructured.Unstructured), r.Subresource))
	case types.JSONPatchType:
		var ops []struct {
			Op, Path string
			Value    any
		}
		if err := json.Unmarshal(r.Body, &ops); err != nil {
			return err
		}
		next := s.live.DeepCopy()
		for _, op := range ops {
			if err := jsonPatch(next.Object, op.Op, op.Path, op.Value); err != nil {
				return err
			}
		}
		return s.update(next, r.FieldManager, r.Subresource)
	}
	return fmt.Errorf("patch type %q", r.PatchType)
}

// keep undoes, after an apply, what the request's subresource may not
// change, keeping the managed fields the field manager computed.
func (s *store) keep(out *unstructured.Unstructured, sub string) *unstructured.Unstructured {
	mf := out.GetManagedFields()
	kept := s.strategy(out, sub)
	kept.SetManagedFields(mf)
	return kept
}

// jsonPatch applies one RFC 6902 operation of the kinds a plan uses.
func jsonPatch(doc map[string]any, op, path string, value any) error {
	toks := strings.Split(strings.TrimPrefix(path, "/"), "/")
	var parent any = doc
	for _, t := range toks[:len(toks)-1] {
		switch p := parent.(type) {
		case map[string]any:
			parent = p[t]
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(p) {
				return fmt.Errorf("json patch: %s: no such path", path)
			}
			parent = p[i]
		default:
			return fmt.Errorf("json patch: %s: no such path", path)
		}
	}
	last := toks[len(toks)-1]
	switch p := parent.(type) {
	case map[string]any:
		switch op {
		case "test":
			if !reflect.DeepEqual(p[last], value) {
				return fmt.Errorf("json patch: test of %s failed", path)
			}
		case "replace", "add":
			p[last] = value
		case "remove":
			delete(p, last)
		}
		return nil
	case []any:
		if op == "add" && last == "-" {
			return setAt(doc, toks[:len(toks)-1], append(p, value))
		}
		i, err := strconv.Atoi(last)
		if err != nil || i < 0 || i >= len(p) {
			return fmt.Errorf("json patch: %s: no such index", path)
		}
		switch op {
		case "test":
			if !reflect.DeepEqual(p[i], value) {
				return fmt.Errorf("json patch: test of %s failed", path)
			}
		case "remove":
			return setAt(doc, toks[:len(toks)-1], append(p[:i:i], p[i+1:]...))
		default:
			return fmt.Errorf("json patch: %s on a list item", op)
		}
		return nil
	}
	return fmt.Errorf("json patch: %s: no such path", path)
}

// setAt replaces the value at the map path toks.
func setAt(doc map[string]any, toks []string, v any) error {
	m := doc
	for _, t := range toks[:len(toks)-1] {
		next, ok := m[t].(map[string]any)
		if !ok {
			return fmt.Errorf("json patch: /%s: not an object", strings.Join(toks, "/"))
		}
		m = next
	}
	m[toks[len(toks)-1]] = v
	return nil
}
