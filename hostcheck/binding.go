package hostcheck

import (
	"cmp"
	"context"
	"fmt"
	"maps"
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
	"github.com/condengine/condengine/config/crd"
)

// Binding returns the Agent Kourier broker as a System: Bindings,
// AgentBackends and ChatConnections, drawn by the library's generator
// with a namespace of healthy Bindings an earlier leader wrote; the host
// writes Binding status under the field manager "agent-kourier",
// following the writer policy. Its observer is the prober: a pass starts
// for every Binding and ends with a result per Binding (late ones under
// LateProbes); Env.Observed returns the finished results
// (BindingProbes). Each call returns a new value.
func Binding() *System {
	return &System{
		Name: "Binding",
		Kinds: []Kind{
			{GroupVersionKind: connectionGVK},
			{GroupVersionKind: backendGVK},
			{GroupVersionKind: bindingGVK, Status: true, Vocabulary: binding.Vocabulary},
		},
		Scheme:        bindingScheme(),
		FieldManager:  bindingManager,
		TypeConverter: crd.TypeConverter,
		WriterPolicy:  true,
		Requests:      bindingRequests,
		NewWorld:      newBindingWorld,
	}
}

// BindingProbes returns the probe results the Binding system's prober
// has finished so far, one per Binding UID, sorted by UID: what a host
// hands to every pass as binding.Snapshot.Probes. It is nil for a host
// of another system.
func BindingProbes(env Env) []binding.ProbeResult {
	p, _ := ObservedAs[[]binding.ProbeResult](env)
	return p
}

// bindingWorld is one schedule's Binding world. hist is the memory of
// served generations a broker would hold had it evaluated every state
// the store went through; probes holds the finished probe results by
// Binding UID, inflight the passes started and not finished, variant
// the variant each Binding's last result was drawn with.
type bindingWorld struct {
	hist binding.ServedMemory
	// gens is every generation of each Binding the store held, with its
	// spec: what a long-running broker may have served.
	gens     map[types.UID][]binding.Served
	probes   map[types.UID]binding.ProbeResult
	inflight []probeStart
	variant  map[types.UID]int
}

type probeStart struct {
	key     ObjectKey
	uid     types.UID
	gen     int64
	variant int
}

var (
	bindingGVK    = akv1.GroupVersion.WithKind(akv1.KindBinding)
	backendGVK    = akv1.GroupVersion.WithKind(akv1.KindAgentBackend)
	connectionGVK = akv1.GroupVersion.WithKind(akv1.KindChatConnection)
	bindingKinds  = []schema.GroupVersionKind{connectionGVK, backendGVK, bindingGVK}
)

// bindingManager is the broker's documented field manager.
const bindingManager = "agent-kourier"

func bindingScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := akv1.AddToScheme(s); err != nil {
		panic(err) // a registration of our own types: a build defect
	}
	return s
}

func bindingOurs(kind, t string) bool {
	return kind == akv1.KindBinding && binding.Vocabulary.Has(t)
}

// newBindingWorld draws a snapshot with the library's generator and
// keeps its objects. Conditions of our types are left out of the stored
// statuses: the objects start as no writer of ours has touched them,
// while other controllers' conditions stay.
func newBindingWorld(seed uint64) (*World, error) {
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
	objs, err := untouched(bindingScheme(), bindingOurs, out)
	if err != nil {
		return nil, err
	}
	b := &bindingWorld{probes: map[types.UID]binding.ProbeResult{}, variant: map[types.UID]int{}}
	return &World{
		Objects:   objs,
		Prepare:   b.prepare,
		Change:    b.change,
		Observe:   b.observe,
		Finish:    b.finish,
		Observed:  func() any { return b.probeList() },
		Changed:   b.track,
		Expect:    b.expect,
		MayGoBack: b.probedAt,
		Pass:      b.pass,
	}, nil
}

// probedAt reports whether c is a Binding's probe condition, or its
// Ready, that describes the generation the last finished probe pass of
// the object began with. Such a condition goes back to that generation
// when the pass ends after an edit the broker already wrote Pending for:
// a result counts while its generation is not above the Binding's, and
// its conditions carry the generation the pass began with. Accepted
// always describes the current generation.
func (b *bindingWorld) probedAt(obj *unstructured.Unstructured, c metav1.Condition) bool {
	if c.Type == binding.TypeAccepted {
		return false
	}
	p, ok := b.probes[obj.GetUID()]
	return ok && p.Generation == c.ObservedGeneration
}

// probeList is the finished probe results, sorted by UID.
func (b *bindingWorld) probeList() []binding.ProbeResult {
	out := slices.Collect(maps.Values(b.probes))
	slices.SortFunc(out, func(a, b binding.ProbeResult) int { return cmp.Compare(a.UID, b.UID) })
	return out
}

// prepare writes what a previous leader left: the healthy Bindings'
// status as the engine computed it from their finished probes, applied
// under our field manager; those probes are finished.
func (b *bindingWorld) prepare(ctx context.Context, c client.Client) error {
	h := bindingtest.Healthy(bindingtest.GenNow(), healthyNamespace, 3)
	h.Now = t0.Add(-time.Hour)
	res, err := binding.Evaluate(h)
	if err != nil {
		return err
	}
	for _, o := range res.Bindings {
		conds := make([]any, 0, len(o.Owned))
		for _, x := range o.Owned {
			m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&x)
			if err != nil {
				return err
			}
			conds = append(conds, m)
		}
		a := &unstructured.Unstructured{Object: map[string]any{"status": map[string]any{"conditions": conds}}}
		a.SetGroupVersionKind(bindingGVK)
		a.SetNamespace(o.Namespace)
		a.SetName(o.Name)
		if err := c.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(a), client.FieldOwner(bindingManager), client.ForceOwnership); err != nil {
			// A Binding the shrinker dropped: no earlier leader's probes.
			return client.IgnoreNotFound(err)
		}
	}
	// A real server gives each object a UID of its own: the probes follow
	// the stored Binding of the same name.
	for i, p := range h.Probes {
		for _, x := range h.Bindings {
			if x.UID != p.UID {
				continue
			}
			u, err := getStored(ctx, c, bindingGVK, ObjectKey{Kind: bindingGVK.Kind, NamespacedName: types.NamespacedName{Namespace: x.Namespace, Name: x.Name}})
			if err != nil {
				return err
			}
			if u != nil {
				h.Probes[i].UID = u.GetUID()
			}
		}
	}
	for _, p := range h.Probes {
		b.probes[p.UID] = p
	}
	return nil
}

// healthyNamespace holds Bindings whose backend and connection are valid.
const healthyNamespace = "team-h"

// The variants a Binding edit draws from.
var (
	editChannels = []string{"C1", "C2", "C3", "C1"}
	editBackends = []string{"echo", "hub", "echo", "missing"}
)

// change carries out a user's or another controller's change.
func (b *bindingWorld) change(ctx context.Context, w client.Client, e Event) (string, error) {
	return "", bindingEdit(ctx, w, e)
}

func bindingEdit(ctx context.Context, w client.Client, e Event) error {
	objs, err := listAll(ctx, w, bindingKinds)
	if err != nil {
		return err
	}
	now := e.Now
	switch e.Op {
	case Create:
		nss := append(bindingtest.Namespaces(), healthyNamespace)
		ns := nss[e.Variant%len(nss)]
		b := bindingtest.NewBinding(ns, "new-"+strconv.Itoa(e.Created), bindingtest.UID("un-"+strconv.Itoa(e.Created)),
			bindingtest.Channel(editChannels[e.Variant%len(editChannels)]), bindingtest.Created(now))
		b.SetGroupVersionKind(bindingGVK)
		return w.Create(ctx, &b)
	case Delete:
		if len(objs) == 0 {
			return nil
		}
		victim := objs[e.Target%len(objs)]
		// One delete in two takes a Binding another one waits on for
		// the same channel, where the world has one.
		if h := heldChannel(objs, e.Target); h != nil && e.Variant%2 == 1 {
			victim = h
		}
		return client.IgnoreNotFound(w.Delete(ctx, victim))
	case Foreign:
		bs := ofKind(objs, akv1.KindBinding)
		if len(bs) == 0 {
			return nil
		}
		return foreignWrite(ctx, w, bs[e.Target%len(bs)], e.Variant, now, binding.Vocabulary.Has)
	case Fight:
		// The fight is over a Binding some writer of ours has written.
		bs := slices.DeleteFunc(ofKind(objs, akv1.KindBinding), func(u *unstructured.Unstructured) bool {
			return !slices.ContainsFunc(conditionsOf(u), func(c metav1.Condition) bool { return binding.Vocabulary.Has(c.Type) })
		})
		if len(bs) == 0 {
			return nil
		}
		return rivalWrite(ctx, w, bs[e.Target%len(bs)], e.Variant, now, binding.Vocabulary.Has)
	}
	// opEdit: a spec change, which bumps the generation as the API server
	// does for a custom resource.
	if len(objs) == 0 {
		return nil
	}
	u := objs[e.Target%len(objs)].DeepCopy()
	switch u.GetKind() {
	case akv1.KindBinding:
		if e.Variant%2 == 0 {
			err = unstructured.SetNestedField(u.Object, editChannels[e.Variant/2%len(editChannels)], "spec", "chat", "channel")
		} else {
			err = unstructured.SetNestedField(u.Object, editBackends[e.Variant/2%len(editBackends)], "spec", "agent", "backendRef", "name")
		}
	case akv1.KindAgentBackend:
		url := "https://" + bindingtest.Canary(u.GetNamespace()) + ".example:8443"
		if e.Variant%3 == 2 {
			url = "ftp://" + bindingtest.Canary(u.GetNamespace()) + ".example:21/x"
		}
		err = unstructured.SetNestedField(u.Object, url, "spec", "url")
	default:
		platform := akv1.PlatformSlack
		if e.Variant%3 == 2 {
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

// applyCondition force-applies one status condition of u as manager,
// at u's resourceVersion: nothing else writes in between, and
// controller-runtime's fake store counts the resourceVersion of a kind
// its scheme has no Go type for back to 1 on an apply without one.
func applyCondition(ctx context.Context, w client.Client, u *unstructured.Unstructured, manager string, cond map[string]any) error {
	a := &unstructured.Unstructured{Object: map[string]any{"status": map[string]any{"conditions": []any{cond}}}}
	a.SetGroupVersionKind(u.GroupVersionKind())
	a.SetNamespace(u.GetNamespace())
	a.SetName(u.GetName())
	a.SetResourceVersion(u.GetResourceVersion())
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

// bindingRequests: a change queues the object's own name; an
// AgentBackend's or a ChatConnection's also queues every Binding of its
// namespace, as a host's mapping watch would (a superset of the Bindings
// that name it). A Binding's new spec (a generation its status does not
// describe yet, a creation) also queues the Bindings that name the same
// ChatConnection, which compete with it for channels, and its deletion
// (whose event carries no spec) every Binding: a Binding that waited for
// the channel it held may take it now. A status write queues no other
// Binding: it moves no channel.
func bindingRequests(obj *unstructured.Unstructured, cache []*unstructured.Unstructured) []types.NamespacedName {
	out := []types.NamespacedName{{Namespace: obj.GetNamespace(), Name: obj.GetName()}}
	if obj.GetKind() == akv1.KindBinding {
		if !newSpec(obj) {
			return out
		}
		conn, named := connectionOf(obj)
		for _, c := range cache {
			if c.GetKind() != akv1.KindBinding || keyOf(c) == keyOf(obj) {
				continue
			}
			if other, _ := connectionOf(c); !named || other == conn {
				out = append(out, types.NamespacedName{Namespace: c.GetNamespace(), Name: c.GetName()})
			}
		}
		return out
	}
	for _, c := range cache {
		if c.GetKind() == akv1.KindBinding && c.GetNamespace() == obj.GetNamespace() {
			out = append(out, types.NamespacedName{Namespace: c.GetNamespace(), Name: c.GetName()})
		}
	}
	return out
}

// newSpec reports whether a Binding's event may move a channel: a
// deletion, or a generation none of our conditions describes yet.
func newSpec(u *unstructured.Unstructured) bool {
	if _, named := connectionOf(u); !named {
		return true
	}
	for _, c := range conditionsOf(u) {
		if bindingOurs(u.GetKind(), c.Type) && c.ObservedGeneration == u.GetGeneration() {
			return false
		}
	}
	return true
}

// connectionOf is the ChatConnection a Binding names, its namespace
// defaulted to the Binding's; false when the object carries no name of
// one (a deletion's event).
func connectionOf(u *unstructured.Unstructured) (types.NamespacedName, bool) {
	name, _, _ := unstructured.NestedString(u.Object, "spec", "chat", "connectionRef", "name")
	ns, _, _ := unstructured.NestedString(u.Object, "spec", "chat", "connectionRef", "namespace")
	if ns == "" {
		ns = u.GetNamespace()
	}
	return types.NamespacedName{Namespace: ns, Name: name}, name != ""
}

// track evaluates the store as it stands with the history's memory and
// keeps the next memory.
func (s *bindingWorld) track(ctx context.Context, store client.Reader, now time.Time) {
	objs, err := listAll(ctx, store, bindingKinds)
	if err != nil {
		return
	}
	s.trackObjs(objs, now)
}

// trackObjs evaluates one state of the store with the history's memory
// and keeps the next memory.
func (s *bindingWorld) trackObjs(objs []*unstructured.Unstructured, now time.Time) {
	snap, err := bindingSnapshot(objs, nil, now, now)
	if err != nil {
		return
	}
	if s.gens == nil {
		s.gens = map[types.UID][]binding.Served{}
	}
	for _, b := range snap.Bindings {
		if !slices.ContainsFunc(s.gens[b.UID], func(x binding.Served) bool { return x.Generation == b.Generation }) {
			s.gens[b.UID] = append(s.gens[b.UID], binding.Served{Kind: akv1.KindBinding, Namespace: b.Namespace, Name: b.Name,
				UID: b.UID, Generation: b.Generation, Binding: b.Spec.DeepCopy()})
		}
	}
	snap.Served = s.hist
	if res, err := binding.Evaluate(snap); err == nil {
		s.hist = res.Memory
	}
}

// expect answers for each Binding with the memory a fresh broker builds
// from the final world. Where the memory of the store's whole history
// gives another answer, the answer depends on which states a host saw,
// and the Binding is not judged (loose). So too where the stored status
// is the answer of a broker that served an older generation the store
// held (servedEarlier): a long-running broker's cache may have held that
// generation beside objects the store never held with it at once.
func (s *bindingWorld) expect(objs []*unstructured.Unstructured, observed any, now, startedAt time.Time) (Expected, error) {
	probes, _ := observed.([]binding.ProbeResult)
	fresh, rounds, err := bindingFixpoint(objs, probes, now, startedAt, binding.ServedMemory{})
	if err != nil {
		return Expected{}, err
	}
	hist, _, err := bindingFixpoint(objs, probes, now, startedAt, s.hist)
	if err != nil {
		return Expected{}, err
	}
	stored := map[ObjectKey]*unstructured.Unstructured{}
	for _, u := range objs {
		if u.GetKind() == akv1.KindBinding {
			stored[keyOf(u)] = u
		}
	}
	for k, e := range fresh {
		if h, ok := hist[k]; ok && !sameOurs(h.Settled, e.Settled) {
			e.Judged = false
			fresh[k] = e
			continue
		}
		u := stored[k]
		if u == nil {
			continue
		}
		ours := ourConditions(u, bindingOurs)
		if sameOurs(ours, e.Settled) {
			continue
		}
		served, err := s.servedEarlier(objs, probes, now, startedAt, u, ours)
		if err != nil {
			return Expected{}, err
		}
		if served {
			e.Judged = false
			fresh[k] = e
		}
	}
	return Expected{Objects: fresh, Rounds: rounds}, nil
}

// servedEarlier reports whether ours, stored on u, is the settled answer
// of a broker that served an older generation of u the store held: the
// history's memory with u's entry set to that generation.
func (s *bindingWorld) servedEarlier(objs []*unstructured.Unstructured, probes []binding.ProbeResult, now, startedAt time.Time, u *unstructured.Unstructured, ours []metav1.Condition) (bool, error) {
	k := keyOf(u)
	for _, g := range s.gens[u.GetUID()] {
		if g.Generation >= u.GetGeneration() {
			continue
		}
		mem := binding.ServedMemory{Objects: slices.DeleteFunc(slices.Clone(s.hist.Objects), func(x binding.Served) bool { return x.UID == g.UID })}
		mem.Objects = append(mem.Objects, g)
		slices.SortFunc(mem.Objects, binding.CompareServed)
		alt, _, err := bindingFixpoint(objs, probes, now, startedAt, mem)
		if err != nil {
			return false, err
		}
		if a, ok := alt[k]; ok && sameOurs(a.Settled, ours) {
			return true, nil
		}
	}
	return false, nil
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
func bindingFixpoint(objs []*unstructured.Unstructured, probes []binding.ProbeResult, now, startedAt time.Time, served binding.ServedMemory) (map[ObjectKey]Answer, int, error) {
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
	out := map[ObjectKey]Answer{}
	for _, o := range res.Bindings {
		out[ObjectKey{Kind: akv1.KindBinding, NamespacedName: types.NamespacedName{Namespace: o.Namespace, Name: o.Name}}] = Answer{Settled: o.Owned, Pass: o.Owned, Judged: true}
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
