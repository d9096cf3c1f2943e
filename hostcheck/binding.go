package hostcheck

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/bindingtest"
)

// bindingSystem is the Agent Kourier broker. hist is the memory of
// served generations a broker would hold had it evaluated every state
// the store went through.
type bindingSystem struct{ hist binding.ServedMemory }

var (
	bindingGVK    = akv1.GroupVersion.WithKind(akv1.KindBinding)
	backendGVK    = akv1.GroupVersion.WithKind(akv1.KindAgentBackend)
	connectionGVK = akv1.GroupVersion.WithKind(akv1.KindChatConnection)
)

// bindingManager is the broker's documented field manager.
const bindingManager = "agent-kourier"

func (bindingSystem) kinds() []schema.GroupVersionKind {
	return []schema.GroupVersionKind{connectionGVK, backendGVK, bindingGVK}
}

func (bindingSystem) statusKinds() []schema.GroupVersionKind {
	return []schema.GroupVersionKind{bindingGVK}
}

func (bindingSystem) scheme() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := akv1.AddToScheme(s); err != nil {
		panic(err) // a registration of our own types: a build defect
	}
	return s
}

func (bindingSystem) manager() string { return bindingManager }

func (bindingSystem) timed() bool { return true }

func (bindingSystem) silentKinds() []schema.GroupVersionKind { return nil }

func (bindingSystem) readError(string) error { return nil }

func (bindingSystem) failing() bool { return false }

func (bindingSystem) calm() string { return "" }

// collect: the broker has no collector; its results from outside are
// the prober's.
func (bindingSystem) collect(context.Context, client.Reader, event, time.Time) ([]types.NamespacedName, error) {
	return nil, nil
}

func (bindingSystem) ours(kind, t string) bool {
	return kind == akv1.KindBinding && binding.Vocabulary.Has(t)
}

func (bindingSystem) finalizer(string) string { return "" }

// world draws a snapshot with the library's generator and keeps its
// objects. Conditions of our types are left out of the stored statuses:
// the objects start as no writer of ours has touched them, while other
// controllers' conditions stay.
func (bindingSystem) world(seed uint64) ([]client.Object, error) {
	s := bindingtest.SnapshotGen().Example(int(seed % (1 << 31)))
	// The generator's worlds are mostly refusals; a namespace of healthy
	// Bindings gives the good statuses that failovers and restarts must
	// keep.
	h := bindingtest.Healthy(bindingtest.GenNow(), healthyNamespace, 3)
	s.Connections = append(s.Connections, h.Connections...)
	s.Backends = append(s.Backends, h.Backends...)
	s.Bindings = append(s.Bindings, h.Bindings...)
	var out []client.Object
	out = appendEach(out, s.Connections)
	out = appendEach(out, s.Backends)
	out = appendEach(out, s.Bindings)
	return untouched(&bindingSystem{}, out)
}

// prepare writes what a previous leader left: the healthy Bindings'
// status as the engine computed it from their finished probes, applied
// under our field manager; it returns those probes.
func (*bindingSystem) prepare(ctx context.Context, c client.Client) ([]binding.ProbeResult, error) {
	h := bindingtest.Healthy(bindingtest.GenNow(), healthyNamespace, 3)
	h.Now = t0.Add(-time.Hour)
	res, err := binding.Evaluate(h)
	if err != nil {
		return nil, err
	}
	for _, o := range res.Bindings {
		conds := make([]any, 0, len(o.Owned))
		for _, x := range o.Owned {
			m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&x)
			if err != nil {
				return nil, err
			}
			conds = append(conds, m)
		}
		a := &unstructured.Unstructured{Object: map[string]any{"status": map[string]any{"conditions": conds}}}
		a.SetGroupVersionKind(bindingGVK)
		a.SetNamespace(o.Namespace)
		a.SetName(o.Name)
		if err := c.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(a), client.FieldOwner(bindingManager), client.ForceOwnership); err != nil {
			return nil, client.IgnoreNotFound(err)
		}
	}
	// A real server gives each object a UID of its own: the probes follow
	// the stored Binding of the same name.
	for i, p := range h.Probes {
		for _, b := range h.Bindings {
			if b.UID != p.UID {
				continue
			}
			u, err := getStored(ctx, c, bindingGVK, objKey{Kind: bindingGVK.Kind, NamespacedName: types.NamespacedName{Namespace: b.Namespace, Name: b.Name}})
			if err != nil {
				return nil, err
			}
			if u != nil {
				h.Probes[i].UID = u.GetUID()
			}
		}
	}
	return h.Probes, nil
}

// dedupe keeps the first object of each kind and name: the generator
// repeats UIDs and names now and then, which a store refuses.
func dedupe(objs []client.Object) []client.Object {
	seen := map[string]bool{}
	out := objs[:0]
	for _, o := range objs {
		k := o.GetObjectKind().GroupVersionKind().Kind + "/" + o.GetNamespace() + "/" + o.GetName()
		if seen[k] || seen["uid/"+string(o.GetUID())] {
			continue
		}
		seen[k], seen["uid/"+string(o.GetUID())] = true, true
		out = append(out, o)
	}
	return out
}

// healthyNamespace holds Bindings whose backend and connection are valid.
const healthyNamespace = "team-h"

// The variants a Binding edit draws from.
var (
	editChannels = []string{"C1", "C2", "C3", "C1"}
	editBackends = []string{"echo", "hub", "echo", "missing"}
)

func (bindingSystem) edit(ctx context.Context, w client.Client, e event, n int, now time.Time) error {
	objs, err := listAll(ctx, w, (&bindingSystem{}).kinds())
	if err != nil {
		return err
	}
	switch e.Op {
	case opCreate:
		nss := append(bindingtest.Namespaces(), healthyNamespace)
		ns := nss[e.Arg%len(nss)]
		b := bindingtest.NewBinding(ns, "new-"+strconv.Itoa(n), bindingtest.UID("un-"+strconv.Itoa(n)),
			bindingtest.Channel(editChannels[e.Arg%len(editChannels)]), bindingtest.Created(now))
		b.SetGroupVersionKind(bindingGVK)
		return w.Create(ctx, &b)
	case opDelete:
		if len(objs) == 0 {
			return nil
		}
		return client.IgnoreNotFound(w.Delete(ctx, objs[e.Target%len(objs)]))
	case opForeign:
		bs := ofKind(objs, akv1.KindBinding)
		if len(bs) == 0 {
			return nil
		}
		return foreignWrite(ctx, w, bs[e.Target%len(bs)], e.Arg, now, binding.Vocabulary.Has)
	case opFight:
		// The fight is over a Binding some writer of ours has written.
		bs := slices.DeleteFunc(ofKind(objs, akv1.KindBinding), func(u *unstructured.Unstructured) bool {
			return !slices.ContainsFunc(conditionsOf(u), func(c metav1.Condition) bool { return binding.Vocabulary.Has(c.Type) })
		})
		if len(bs) == 0 {
			return nil
		}
		return rivalWrite(ctx, w, bs[e.Target%len(bs)], e.Arg, now, binding.Vocabulary.Has)
	}
	// opEdit: a spec change, which bumps the generation as the API server
	// does for a custom resource.
	if len(objs) == 0 {
		return nil
	}
	u := objs[e.Target%len(objs)].DeepCopy()
	switch u.GetKind() {
	case akv1.KindBinding:
		if e.Arg%2 == 0 {
			err = unstructured.SetNestedField(u.Object, editChannels[e.Arg/2%len(editChannels)], "spec", "chat", "channel")
		} else {
			err = unstructured.SetNestedField(u.Object, editBackends[e.Arg/2%len(editBackends)], "spec", "agent", "backendRef", "name")
		}
	case akv1.KindAgentBackend:
		url := "https://" + bindingtest.Canary(u.GetNamespace()) + ".example:8443"
		if e.Arg%3 == 2 {
			url = "ftp://" + bindingtest.Canary(u.GetNamespace()) + ".example:21/x"
		}
		err = unstructured.SetNestedField(u.Object, url, "spec", "url")
	default:
		platform := akv1.PlatformSlack
		if e.Arg%3 == 2 {
			platform = "teams"
		}
		err = unstructured.SetNestedField(u.Object, platform, "spec", "platform")
	}
	if err != nil {
		return err
	}
	u.SetGeneration(u.GetGeneration() + 1)
	return w.Update(ctx, u)
}

// otherManager is the field manager of the other controller that shares
// the Binding's status.
const otherManager = "other-controller"

// foreignWrite is another controller's status write: an apply of its own
// condition, or an edit of one of ours (a person with kubectl edit).
func foreignWrite(ctx context.Context, w client.Client, u *unstructured.Unstructured, variant int, now time.Time, ours func(string) bool) error {
	if variant%3 == 2 {
		return editByHand(ctx, w, u, ours)
	}
	status := "True"
	if variant%3 == 1 {
		status = "False"
	}
	return applyCondition(ctx, w, u, otherManager, map[string]any{
		"type": "example.com/Synced", "status": status, "reason": "Synced" + status, "message": "",
		"lastTransitionTime": now.UTC().Format(time.RFC3339),
	})
}

// editByHand is a person's kubectl edit of the first of our conditions
// on u: an update of the status under the manager "kubectl-edit" (with
// none of ours there, the person saves the status unchanged).
func editByHand(ctx context.Context, w client.Client, u *unstructured.Unstructured, ours func(string) bool) error {
	x := u.DeepCopy()
	conds, _, _ := unstructured.NestedSlice(x.Object, "status", "conditions")
	for i, c := range conds {
		m, ok := c.(map[string]any)
		if ok && ours(fmt.Sprint(m["type"])) {
			m["status"], m["reason"], m["message"] = "False", "EditedByHand", "edited by a person"
			conds[i] = m
			break
		}
	}
	if err := unstructured.SetNestedSlice(x.Object, conds, "status", "conditions"); err != nil {
		return err
	}
	return w.Status().Update(ctx, x, client.FieldOwner("kubectl-edit"))
}

// rivalManager is the field manager of a second controller that thinks
// one of our conditions is its own.
const rivalManager = "rival-controller"

// rivalWrite is one move of a writer fighting over u's status: a person
// edits one of our conditions by hand (even variants), or a rival
// controller force-applies its own value of one (odd). Either keeps
// setting the same value, so every put-back of ours is undone again.
func rivalWrite(ctx context.Context, w client.Client, u *unstructured.Unstructured, variant int, now time.Time, ours func(string) bool) error {
	if variant%2 == 0 {
		return editByHand(ctx, w, u, ours)
	}
	for _, c := range conditionsOf(u) {
		if !ours(c.Type) {
			continue
		}
		return applyCondition(ctx, w, u, rivalManager, map[string]any{
			"type": c.Type, "status": "False", "reason": "OverriddenByRival", "message": "set by another controller",
			"observedGeneration": c.ObservedGeneration, "lastTransitionTime": now.UTC().Format(time.RFC3339),
		})
	}
	return nil
}

// applyCondition force-applies one status condition of u as manager.
func applyCondition(ctx context.Context, w client.Client, u *unstructured.Unstructured, manager string, cond map[string]any) error {
	a := &unstructured.Unstructured{Object: map[string]any{"status": map[string]any{"conditions": []any{cond}}}}
	a.SetGroupVersionKind(u.GroupVersionKind())
	a.SetNamespace(u.GetNamespace())
	a.SetName(u.GetName())
	return w.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(a), client.FieldOwner(manager), client.ForceOwnership)
}

func ofKind(objs []*unstructured.Unstructured, kind string) []*unstructured.Unstructured {
	var out []*unstructured.Unstructured
	for _, o := range objs {
		if o.GetKind() == kind {
			out = append(out, o)
		}
	}
	return out
}

// requests: a change queues the object's own name; an AgentBackend's or
// a ChatConnection's also queues every Binding of its namespace, as a
// host's mapping watch would (a superset of the Bindings that name it).
func (bindingSystem) requests(obj *unstructured.Unstructured, cache []*unstructured.Unstructured) []types.NamespacedName {
	out := []types.NamespacedName{{Namespace: obj.GetNamespace(), Name: obj.GetName()}}
	if obj.GetKind() == akv1.KindBinding {
		return out
	}
	for _, c := range cache {
		if c.GetKind() == akv1.KindBinding && c.GetNamespace() == obj.GetNamespace() {
			out = append(out, types.NamespacedName{Namespace: c.GetNamespace(), Name: c.GetName()})
		}
	}
	return out
}

// track evaluates the store as it stands with the history's memory and
// keeps the next memory.
func (s *bindingSystem) track(ctx context.Context, store client.Reader, now time.Time) {
	objs, err := listAll(ctx, store, s.kinds())
	if err != nil {
		return
	}
	snap, err := bindingSnapshot(objs, nil, now, now)
	if err != nil {
		return
	}
	snap.Served = s.hist
	if res, err := binding.Evaluate(snap); err == nil {
		s.hist = res.Memory
	}
}

// expect answers for each Binding with the memory a fresh broker builds
// from the final world. Where the memory of the store's whole history
// gives another answer, the answer depends on which states a host saw,
// and the Binding is not judged (loose).
func (s *bindingSystem) expect(objs []*unstructured.Unstructured, probes []binding.ProbeResult, now, startedAt time.Time) (map[objKey]expected, error) {
	fresh, _, err := bindingFixpoint(objs, probes, now, startedAt, binding.ServedMemory{})
	if err != nil {
		return nil, err
	}
	hist, _, err := bindingFixpoint(objs, probes, now, startedAt, s.hist)
	if err != nil {
		return nil, err
	}
	out := map[objKey]expected{}
	for k, e := range fresh {
		if h, ok := hist[k]; ok && diffOurs(s, k.Kind, h.owned, e.owned) != "" {
			e.ok = false
		}
		out[k] = e
	}
	return out, nil
}

func bindingSnapshot(objs []*unstructured.Unstructured, probes []binding.ProbeResult, now, startedAt time.Time) (binding.Snapshot, error) {
	s := binding.Snapshot{
		Now:    now,
		Broker: binding.Broker{Leader: true, StartedAt: startedAt, ConfigSource: binding.ConfigSourceCRDs, ProberListed: true},
		Probes: probes,
	}
	err := sortInto(objs, map[string]func(*unstructured.Unstructured) error{
		akv1.KindBinding:        typedInto(&s.Bindings),
		akv1.KindAgentBackend:   typedInto(&s.Backends),
		akv1.KindChatConnection: typedInto(&s.Connections),
	})
	return s, err
}

// bindingFixpoint is the engine's answer for every Binding once a fresh
// broker has settled the stored world, and the evaluations it took.
func bindingFixpoint(objs []*unstructured.Unstructured, probes []binding.ProbeResult, now, startedAt time.Time, served binding.ServedMemory) (map[objKey]expected, int, error) {
	s, err := bindingSnapshot(objs, probes, now, startedAt)
	if err != nil {
		return nil, 0, err
	}
	s.Served = served
	// A host's memory of served generations is rebuilt from the world:
	// evaluate until it stops changing, writing each answer back, as a
	// fresh host's passes do.
	var res binding.Result
	rounds := 0
	for range 5 {
		var err error
		if res, err = binding.Evaluate(s); err != nil {
			return nil, rounds, err
		}
		rounds++
		binding.ApplyInPlace(s.Bindings, res)
		if slices.EqualFunc(res.Memory.Objects, s.Served.Objects, func(a, b binding.Served) bool {
			return binding.CompareServed(a, b) == 0 && a.Generation == b.Generation
		}) {
			break
		}
		s.Served = res.Memory
	}
	out := map[objKey]expected{}
	for _, o := range res.Bindings {
		out[objKey{Kind: akv1.KindBinding, NamespacedName: types.NamespacedName{Namespace: o.Namespace, Name: o.Name}}] = expected{owned: o.Owned, pass: o.Owned, ok: true}
	}
	return out, rounds, nil
}

// sortInto hands each object to the function its kind names; an object
// of a kind with none is passed over. It stops at the first error.
func sortInto(objs []*unstructured.Unstructured, byKind map[string]func(*unstructured.Unstructured) error) error {
	for _, o := range objs {
		if f, ok := byKind[o.GetKind()]; ok {
			if err := f(o); err != nil {
				return err
			}
		}
	}
	return nil
}

// typedInto appends an object, converted to its typed form, to *list.
func typedInto[T any](list *[]T) func(*unstructured.Unstructured) error {
	return func(u *unstructured.Unstructured) error {
		var x T
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &x); err != nil {
			return fmt.Errorf("hostcheck: %s: %w", keyOf(u), err)
		}
		*list = append(*list, x)
		return nil
	}
}

// probe is the prober's finding for one generation of a Binding: mostly
// a healthy backend and channel, now and then a backend that answers 503.
func (bindingSystem) probe(b *unstructured.Unstructured, generation int64, variant int) (binding.ProbeResult, bool) {
	if b.GetKind() != akv1.KindBinding {
		return binding.ProbeResult{}, false
	}
	var typed akv1.Binding
	typed.ObjectMeta = metav1.ObjectMeta{Namespace: b.GetNamespace(), Name: b.GetName(), UID: b.GetUID()}
	backend := bindingtest.CardOK()
	if variant%4 == 3 {
		backend = bindingtest.HTTP(503)
	}
	return bindingtest.Probe(typed, generation, backend, bindingtest.Joined()), true
}
