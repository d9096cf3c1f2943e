package hostcheck

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/config/crd"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

// FromSystem adapts sys, a system whose host writes the status of one
// kind (the one Kind with Status), to the harness; scheme knows the
// kinds a host reads typed (nil: every kind is stored and served
// unstructured). sys needs a Generate; its CRDs, when set, type the
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

// prepare writes what an earlier leader left: the statuses Run answered
// an hour before the start, applied under our field manager to every
// other object of the status kind that needed a write.
func (w *adaptedWorld) prepare(ctx context.Context, c client.Client) error {
	objs, err := listAll(ctx, c, []schema.GroupVersionKind{w.a.gvk})
	if err != nil {
		return err
	}
	all, err := w.stored(ctx, c)
	if err != nil {
		return err
	}
	outs, err := w.run(all, w.observed, w.start.Add(-time.Hour))
	if err != nil {
		return err
	}
	for i, u := range objs {
		o, ok := outs[keyOf(u)]
		if !ok || !o.Write || i%2 == 1 {
			continue
		}
		var status map[string]any
		if len(o.Status) > 0 {
			if err := json.Unmarshal(o.Status, &status); err != nil {
				return fmt.Errorf("outcome of %s: status: %w", keyOf(u), err)
			}
		}
		if status == nil {
			status = map[string]any{}
		}
		// A status the store refuses is left unwritten: the host meets
		// that object unwritten. The apply carries the resourceVersion
		// read, as applyCondition's does.
		_ = applyStatus(ctx, c, w.a.sys.FieldManager, w.a.gvk, u.GetNamespace(), u.GetName(), u.GetResourceVersion(), status, w.a.status.Vocabulary.Owned(o.Conditions))
	}
	return nil
}

// stored lists every object of the system's kinds in the store.
func (w *adaptedWorld) stored(ctx context.Context, c client.Reader) ([]*unstructured.Unstructured, error) {
	var gvks []schema.GroupVersionKind
	for _, k := range w.a.sys.Kinds {
		gvks = append(gvks, schema.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind})
	}
	return listAll(ctx, c, gvks)
}

// change carries out a user's or another controller's change.
func (w *adaptedWorld) change(ctx context.Context, c client.Client, e Event) (string, error) {
	objs, err := w.stored(ctx, c)
	if err != nil {
		return "", err
	}
	switch e.Op {
	case Delete:
		if len(objs) == 0 {
			return "", nil
		}
		u := objs[e.Target%len(objs)]
		return fmt.Sprintf("%s is deleted", keyOf(u)), client.IgnoreNotFound(c.Delete(ctx, u))
	case Foreign:
		ss := ofKind(objs, w.a.status.Kind)
		if len(ss) == 0 {
			return "", nil
		}
		u := ss[e.Target%len(ss)]
		return "on " + keyOf(u).String(), foreignWrite(ctx, c, u, e.Variant, e.Now, func(t string) bool { return w.a.ours(u.GetKind(), t) })
	case Create:
		return w.create(ctx, c, e)
	case Edit:
		if len(objs) == 0 {
			return "", nil
		}
		return w.edit(ctx, c, e, objs[e.Target%len(objs)].DeepCopy())
	}
	return "", nil
}

// edit replaces u's spec with that of a drawn object of its kind.
func (w *adaptedWorld) edit(ctx context.Context, c client.Client, e Event, u *unstructured.Unstructured) (string, error) {
	f, err := w.donor(e.Variant)
	if err != nil {
		return "", err
	}
	from := ofKind(f.objs, u.GetKind())
	if len(from) == 0 {
		return fmt.Sprintf("no drawn %s to take a spec from", u.GetKind()), nil
	}
	d := from[e.Target%len(from)]
	changed := false
	for k := range u.Object {
		if _, kept := d.Object[k]; !kept && !metaKey(k) {
			delete(u.Object, k)
			changed = true
		}
	}
	for k, v := range d.Object {
		if metaKey(k) || equalJSON(u.Object[k], v) {
			continue
		}
		u.Object[k] = runtime.DeepCopyJSONValue(v)
		changed = true
	}
	if !changed {
		return fmt.Sprintf("%s: the drawn spec is the one it has", keyOf(u)), nil
	}
	what := fmt.Sprintf("%s: spec replaced by that of the drawn %s %s/%s", keyOf(u), d.GetKind(), d.GetNamespace(), d.GetName())
	if g := u.GetGeneration(); g > 0 {
		u.SetGeneration(g + 1)
		what += fmt.Sprintf(" (generation %d)", g+1)
	}
	return what, c.Update(ctx, u)
}

// metaKey reports whether a top-level key is one an edit of the spec
// keeps.
func metaKey(k string) bool {
	return k == "apiVersion" || k == "kind" || k == "metadata" || k == "status"
}

func equalJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}

// create makes a new object of a drawn one: under its own name when no
// object of the world has had it, or with the count of creations added.
// (An object made again under a deleted one's name would start its
// resourceVersions over in the in-memory store, where the API server's
// only grow.)
func (w *adaptedWorld) create(ctx context.Context, c client.Client, e Event) (string, error) {
	f, err := w.donor(e.Variant)
	if err != nil {
		return "", err
	}
	if len(f.objs) == 0 {
		return "no drawn object to create", nil
	}
	u := f.objs[e.Target%len(f.objs)].DeepCopy()
	if w.named[keyOf(u)] {
		u.SetName(u.GetName() + "-" + strconv.Itoa(e.Created))
	}
	w.named[keyOf(u)] = true
	u.SetUID(types.UID("un-" + strconv.Itoa(e.Created)))
	u.SetCreationTimestamp(metav1.NewTime(e.Now))
	u.SetDeletionTimestamp(nil)
	u.SetFinalizers(nil)
	delete(u.Object, "status")
	if w.a.custom[u.GetKind()] {
		u.SetGeneration(1)
	}
	return fmt.Sprintf("%s is created", keyOf(u)), c.Create(ctx, u)
}

// observe: where a Binding schedule ends a probe pass, the observed
// block of a drawn file replaces the host's, and every object of the
// status kind is queued; no pass starts.
func (w *adaptedWorld) observe(ctx context.Context, c client.Reader, e Event) (string, []types.NamespacedName, error) {
	if e.Op != ObserveEnd {
		return "no observer pass starts (the observations come whole, with a drawn file)", nil, nil
	}
	f, err := w.donor(e.Variant)
	if err != nil {
		return "", nil, err
	}
	if len(f.observed) == 0 && len(w.observed) == 0 {
		return "nothing new is observed (the drawn file has no observed block)", nil, nil
	}
	w.observed = f.observed
	objs, err := listAll(ctx, c, []schema.GroupVersionKind{w.a.gvk})
	if err != nil {
		return "", nil, err
	}
	names := make([]types.NamespacedName, 0, len(objs))
	for _, u := range objs {
		names = append(names, keyOf(u).NamespacedName)
	}
	return fmt.Sprintf("new observations arrive: the observed block of the file drawn for variant %d", e.Variant), names, nil
}

// run evaluates objs with observed at now and returns the outcomes of
// the status kind by object.
func (w *adaptedWorld) run(objs []*unstructured.Unstructured, observed json.RawMessage, now time.Time) (map[ObjectKey]scenario.Outcome, error) {
	f := &scenario.File{Name: "hostcheck world", System: w.a.sys.Name, Now: metav1.NewTime(now), Observed: observed}
	for _, u := range objs {
		x := u.DeepCopy()
		x.SetManagedFields(nil)
		raw, err := x.MarshalJSON()
		if err != nil {
			return nil, err
		}
		f.Objects = append(f.Objects, raw)
	}
	outs, err := w.a.sys.Run(f, false)
	if err != nil {
		return nil, err
	}
	out := map[ObjectKey]scenario.Outcome{}
	for _, o := range outs {
		if o.Kind == w.a.status.Kind {
			out[ObjectKey{Kind: o.Kind, NamespacedName: types.NamespacedName{Namespace: o.Namespace, Name: o.Name}}] = o
		}
	}
	return out, nil
}

// expect answers with Run: one pass over the stored world, then Run
// applied until nothing more is due.
func (w *adaptedWorld) expect(objs []*unstructured.Unstructured, observed any, now, _ time.Time) (Expected, error) {
	obs, _ := observed.(json.RawMessage)
	pass, err := w.run(objs, obs, now)
	if err != nil {
		return Expected{}, err
	}
	out := map[ObjectKey]Answer{}
	for k, o := range pass {
		out[k] = Answer{Pass: w.a.status.Vocabulary.Owned(o.Conditions), PassRelease: o.Finalizer == conditions.FinalizerRemove,
			Due: due(o)}
	}
	world := make([]*unstructured.Unstructured, len(objs))
	for i, u := range objs {
		world[i] = u.DeepCopy()
	}
	outs, rounds, judged := pass, 1, false
	for range engineRoundsCap(len(objs)) {
		if !anyDue(outs) {
			judged = true
			break
		}
		if world, err = w.apply(world, outs); err != nil {
			return Expected{}, err
		}
		if outs, err = w.run(world, obs, now); err != nil {
			return Expected{}, err
		}
		rounds++
	}
	for k, e := range out {
		o, held := outs[k]
		switch {
		case held:
			e.Settled, e.Release = w.a.status.Vocabulary.Owned(o.Conditions), o.Finalizer == conditions.FinalizerRemove
		case w.a.status.Finalizer != "":
			// Released on the way: once settled, it must be gone.
			e.Settled, e.Release = e.Pass, true
		default:
			continue
		}
		e.Judged = judged
		out[k] = e
	}
	return Expected{Objects: out, Rounds: rounds}, nil
}

// due reports whether an outcome writes a status or moves a finalizer.
func due(o scenario.Outcome) bool { return o.Write || o.Finalizer != conditions.FinalizerKeep }

// anyDue reports whether some outcome is due.
func anyDue(outs map[ObjectKey]scenario.Outcome) bool {
	for _, o := range outs {
		if due(o) {
			return true
		}
	}
	return false
}

// apply writes each outcome into the world as a host would: a due write
// sets the status Run computed and its conditions, and the finalizer is
// added or removed; a deleted object no finalizer holds is gone.
func (w *adaptedWorld) apply(world []*unstructured.Unstructured, outs map[ObjectKey]scenario.Outcome) ([]*unstructured.Unstructured, error) {
	kept := world[:0]
	for _, u := range world {
		o, ok := outs[keyOf(u)]
		if !ok {
			kept = append(kept, u)
			continue
		}
		if o.Write {
			status, _, _ := unstructured.NestedMap(u.Object, "status")
			if status == nil {
				status = map[string]any{}
			}
			if len(o.Status) > 0 {
				var computed map[string]any
				if err := json.Unmarshal(o.Status, &computed); err != nil {
					return nil, fmt.Errorf("outcome of %s: status: %w", keyOf(u), err)
				}
				for k, v := range computed {
					status[k] = v
				}
			}
			conds := make([]any, 0, len(o.Conditions))
			for _, c := range o.Conditions {
				m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&c)
				if err != nil {
					return nil, err
				}
				conds = append(conds, m)
			}
			status["conditions"] = conds
			u.Object["status"] = status
		}
		if f := w.a.status.Finalizer; f != "" {
			switch fs := u.GetFinalizers(); o.Finalizer {
			case conditions.FinalizerAdd:
				if !slices.Contains(fs, f) {
					u.SetFinalizers(append(fs, f))
				}
			case conditions.FinalizerRemove:
				u.SetFinalizers(slices.DeleteFunc(fs, func(x string) bool { return x == f }))
			}
		}
		if u.GetDeletionTimestamp() != nil && len(u.GetFinalizers()) == 0 {
			continue
		}
		kept = append(kept, u)
	}
	return kept, nil
}
