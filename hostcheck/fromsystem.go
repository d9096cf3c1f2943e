package hostcheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/condengine/condengine/config/crd"
	"github.com/condengine/condengine/system"
)

// FromSystem adapts sys, a system whose host writes the status of one
// kind (the one Kind with Status), to the harness. scheme holds the Go
// types the host reads and writes; it must hold the status kind's (the
// store keeps the resourceVersions of server-side applies only for kinds
// with one), and other kinds it lacks are stored and served
// unstructured. sys needs a Generate; its CRDs, when set, type the
// store's server-side apply (without them an apply of ours would take
// other writers' conditions away, and the harness would blame the host).
//
//   - A world is the objects of sys's kinds in the file Generate draws
//     for the schedule's seed, as no writer of ours has touched them
//     (our conditions left out), with the clock at the file's now. An
//     earlier leader wrote every other object of the status kind: what
//     Run answered an hour before the start, applied under the field
//     manager. The host meets both kinds of object.
//   - Changes: a user replaces an object's spec (every field but
//     apiVersion, kind, metadata and status) with that of an object of
//     the same kind Generate drew for another seed, and its generation
//     moves, as the API server moves a custom resource's; creates such
//     an object (under its own name when that is free, so a missing
//     reference may appear); deletes any object. Another controller
//     writes a condition of its own on an object of the status kind, or
//     a person edits one of ours by hand.
//   - Observations: Env.Observed returns the file's observed block as
//     json.RawMessage (decode it with ObservedAs); where a Binding
//     schedule ends a probe pass, the block of another drawn file
//     replaces it, and every object of the status kind is queued.
//   - The oracle is sys.Run on the stored objects with the current
//     observed block at the virtual now: our conditions of each outcome
//     (by the kind's vocabulary), Write and the finalizer decision, and,
//     for Settles, Run applied again and again (status, conditions,
//     finalizer; a deleted object released goes) until nothing more is
//     due. Run's Outcome.Write must mean "a write is due".
//   - A change queues the object's own name and every object of the
//     status kind in its namespace (System.Requests left nil).
//
// The faults are the harness's own, all of them but Fights (the host is
// not held to binding/policy's writer). An unusable sys is reported by
// Check and Find.
func FromSystem(sys *system.System, scheme *runtime.Scheme) *System {
	if sys == nil {
		return &System{err: errors.New("hostcheck: FromSystem: the system is nil")}
	}
	a := &adapted{sys: sys}
	out := &System{Name: sys.Name, Scheme: scheme, FieldManager: sys.FieldManager, NewWorld: a.world}
	if err := a.read(scheme); err != nil {
		out.err = fmt.Errorf("hostcheck: FromSystem: %w", err)
		return out
	}
	for _, k := range sys.Kinds {
		gvk := schema.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind}
		hk := Kind{GroupVersionKind: gvk, Status: k.Status, Finalizer: k.Finalizer}
		if k.Status {
			hk.Vocabulary = k.Vocabulary
		}
		out.Kinds = append(out.Kinds, hk)
	}
	if sys.CRDs != nil {
		out.TypeConverter = sync.OnceValues(func() (managedfields.TypeConverter, error) { return crd.TypeConverterFrom(sys.CRDs) })
	}
	return out
}

// adapted is what FromSystem reads of a system.System.
type adapted struct {
	sys    *system.System
	status system.Kind
	gvk    schema.GroupVersionKind
	// custom holds the kinds a custom resource's generation moves on.
	custom map[string]bool
}

func (a *adapted) read(scheme *runtime.Scheme) error {
	if err := system.Validate(a.sys); err != nil {
		return err // it names the system
	}
	if err := a.readKinds(scheme); err != nil {
		return fmt.Errorf("system %q: %w", a.sys.Name, err)
	}
	return nil
}

func (a *adapted) readKinds(scheme *runtime.Scheme) error {
	if a.sys.Generate == nil {
		return errors.New("it has no generator (Generate), so no world can be drawn")
	}
	var status []system.Kind
	a.custom = map[string]bool{}
	for _, k := range a.sys.Kinds {
		if k.Status {
			status = append(status, k)
		}
		if k.Status || k.Vocabulary != nil || k.Finalizer != "" {
			a.custom[k.Kind] = true
		}
	}
	if len(status) != 1 || status[0].Vocabulary == nil {
		return fmt.Errorf("it has %d kinds with Status, want one with a Vocabulary", len(status))
	}
	a.status = status[0]
	a.gvk = schema.GroupVersionKind{Group: a.status.Group, Version: a.status.Version, Kind: a.status.Kind}
	if scheme == nil || !scheme.Recognizes(a.gvk) {
		// The store, controller-runtime's fake client, keeps the
		// resourceVersion of a server-side apply only for a kind with a
		// Go type: for another it lets a stale apply land and counts the
		// version back, and the harness would blame a correct host.
		return fmt.Errorf("the scheme has no Go type for %s, the kind whose status the host writes; register it (its API package's AddToScheme)", a.gvk)
	}
	return nil
}

func (a *adapted) ours(kind, t string) bool {
	return kind == a.status.Kind && a.status.Vocabulary.Has(t)
}

// file is what Generate drew for one seed: its objects, unstructured and
// ready for the store, and its observed block.
type file struct {
	now      time.Time
	objs     []*unstructured.Unstructured
	observed json.RawMessage
}

// draw reads the file Generate draws for seed.
func (a *adapted) draw(seed uint64) (*file, error) {
	f, err := a.sys.Generate(int(seed % (1 << 31)))
	if err != nil {
		return nil, err
	}
	if f == nil {
		return nil, errors.New("the generator returned no file")
	}
	out := &file{now: f.Now.Time, observed: f.Observed}
	for i, raw := range f.Objects {
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(raw); err != nil {
			return nil, fmt.Errorf("objects[%d]: %w", i, err)
		}
		k, ok := a.sys.Kind(u.GetKind())
		if !ok || u.GetAPIVersion() != k.APIVersion() {
			continue // not a kind of the system: no host reads it
		}
		if u.GetDeletionTimestamp() != nil && len(u.GetFinalizers()) == 0 {
			continue // the API server has removed it already
		}
		u.SetResourceVersion("")
		u.SetManagedFields(nil)
		if u.GetUID() == "" {
			u.SetUID(types.UID(fmt.Sprintf("uid-%d-%d", seed, i)))
		}
		if a.custom[u.GetKind()] && u.GetGeneration() == 0 {
			u.SetGeneration(1)
		}
		out.objs = append(out.objs, u)
	}
	return out, nil
}

// world draws the world of one schedule.
func (a *adapted) world(seed uint64) (*World, error) {
	f, err := a.draw(seed)
	if err != nil {
		return nil, err
	}
	objs := make([]client.Object, 0, len(f.objs))
	for _, u := range f.objs {
		objs = append(objs, u)
	}
	objs, err = untouched(runtime.NewScheme(), a.ours, objs)
	if err != nil {
		return nil, err
	}
	w := &adaptedWorld{a: a, seed: seed, start: f.now, observed: f.observed, donors: map[int]*file{}, named: map[ObjectKey]bool{}}
	for _, u := range f.objs {
		w.named[keyOf(u)] = true
	}
	if w.start.IsZero() {
		w.start = t0
	}
	return &World{
		Start:    w.start,
		Objects:  objs,
		Prepare:  w.prepare,
		Change:   w.change,
		Observe:  w.observe,
		Observed: func() any { return w.observed },
		Expect:   w.expect,
		Pass:     w.pass,
	}, nil
}

// adaptedWorld is one schedule's world of an adapted system: the
// observed block the host has now, the files drawn for other seeds that
// edits, creations and new observations take from, by variant, and the
// names objects of the world have had.
type adaptedWorld struct {
	a        *adapted
	seed     uint64
	start    time.Time
	observed json.RawMessage
	donors   map[int]*file
	named    map[ObjectKey]bool
}

// donor is the file drawn for variant: a seed of its own, derived from
// the world's.
func (w *adaptedWorld) donor(variant int) (*file, error) {
	if f, ok := w.donors[variant]; ok {
		return f, nil
	}
	seed := rand.New(rand.NewPCG(w.seed, uint64(variant)+1)).Uint64()
	f, err := w.a.draw(seed)
	if err != nil {
		return nil, fmt.Errorf("the file of variant %d (seed %d): %w", variant, seed%(1<<31), err)
	}
	w.donors[variant] = f
	return f, nil
}
