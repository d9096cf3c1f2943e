package hostcheck_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing/fstest"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/hostcheck"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

// The gadget system is a system of one kind that no part of the module
// knows, declared as a value the way an author of a third kind does: a
// Gadget is Ready when its size is positive, the ConfigMap it names is
// there and the observed block does not list it as unhealthy; once it is
// deleted it is not Ready (Deleting) and its finalizer goes.

const (
	gadgetFinalizer = "example.dev/cleanup"
	gadgetManager   = "gadget-controller"
)

var (
	gadgetGVK        = schema.GroupVersionKind{Group: "example.dev", Version: "v1", Kind: "Gadget"}
	gadgetVocabulary = conditions.MustVocabulary("example.dev/v1", "Gadget", []conditions.Type{{Name: "Ready", Reasons: []conditions.Reason{
		{Status: metav1.ConditionTrue, Reason: "Sized"}, {Status: metav1.ConditionFalse, Reason: "NoSize"},
		{Status: metav1.ConditionFalse, Reason: "ConfigMissing"}, {Status: metav1.ConditionFalse, Reason: "Unhealthy"},
		{Status: metav1.ConditionFalse, Reason: "Deleting"},
	}}})
)

// gadget is the kind's Go type, as its author's API package declares it.
type gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Size      int64  `json:"size"`
		ConfigRef string `json:"configRef,omitempty"`
	} `json:"spec"`
	Status struct {
		Conditions []metav1.Condition `json:"conditions,omitempty"`
	} `json:"status,omitempty"`
}

func (g *gadget) DeepCopyObject() runtime.Object {
	c := *g
	c.ObjectMeta = *g.ObjectMeta.DeepCopy()
	c.Status.Conditions = slices.Clone(g.Status.Conditions)
	return &c
}

type gadgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []gadget `json:"items"`
}

func (l *gadgetList) DeepCopyObject() runtime.Object {
	c := *l
	c.Items = make([]gadget, len(l.Items))
	for i := range l.Items {
		c.Items[i] = *l.Items[i].DeepCopyObject().(*gadget)
	}
	return &c
}

// gadgetObserved is the gadget system's observed block: the Gadgets a
// health check found unhealthy, as namespace/name.
type gadgetObserved struct {
	Unhealthy []string `json:"unhealthy,omitempty"`
}

func gadgets() *system.System {
	return &system.System{
		Name: "gadgets",
		Kinds: []system.Kind{
			{Group: gadgetGVK.Group, Version: gadgetGVK.Version, Kind: gadgetGVK.Kind, Plural: "gadgets", Namespaced: true,
				Vocabulary: gadgetVocabulary, Status: true, Finalizer: gadgetFinalizer},
			{Version: "v1", Kind: "ConfigMap", Plural: "configmaps", Namespaced: true},
		},
		FieldManager: gadgetManager,
		CRDs:         fstest.MapFS{"example.dev_gadgets.yaml": {Data: []byte(gadgetCRD)}},
		Run:          runGadgets,
		Generate:     generateGadgets,
	}
}

// gadgetScheme knows Gadgets and ConfigMaps, which the host reads typed.
func gadgetScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := corev1.AddToScheme(s); err != nil {
		panic(err)
	}
	s.AddKnownTypeWithName(gadgetGVK, &gadget{})
	s.AddKnownTypeWithName(gadgetGVK.GroupVersion().WithKind("GadgetList"), &gadgetList{})
	metav1.AddToGroupVersion(s, gadgetGVK.GroupVersion())
	return s
}

const gadgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.dev
spec:
  group: example.dev
  names: {kind: Gadget, plural: gadgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
          status:
            type: object
            properties:
              conditions:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [type]
                items:
                  type: object
                  properties:
                    type: {type: string}
                    status: {type: string}
                    observedGeneration: {type: integer, format: int64}
                    lastTransitionTime: {type: string, format: date-time}
                    reason: {type: string}
                    message: {type: string}
`

// gadgetOutcome is the gadget engine's answer for one Gadget, given the
// names of the ConfigMaps of its namespace and what was observed.
func gadgetOutcome(g *gadget, configs []string, obs gadgetObserved, now time.Time) scenario.Outcome {
	size, ref := g.Spec.Size, g.Spec.ConfigRef
	ready := metav1.Condition{Type: "Ready", Status: metav1.ConditionFalse, ObservedGeneration: g.GetGeneration()}
	deleting := g.GetDeletionTimestamp() != nil
	switch {
	case deleting:
		ready.Reason = "Deleting"
	case size <= 0:
		ready.Reason = "NoSize"
	case ref != "" && !slices.Contains(configs, ref):
		ready.Reason = "ConfigMissing"
	case slices.Contains(obs.Unhealthy, g.GetNamespace()+"/"+g.GetName()):
		ready.Reason = "Unhealthy"
	default:
		ready.Status, ready.Reason = metav1.ConditionTrue, "Sized"
	}
	current := g.Status.Conditions
	m := gadgetVocabulary.MergeObject(g, current, []metav1.Condition{ready}, now)
	o := scenario.Outcome{Kind: gadgetGVK.Kind, Namespace: g.GetNamespace(), Name: g.GetName(), Conditions: current, Write: m.Changed && !m.Stale}
	if o.Write {
		o.Conditions = m.Conditions
	}
	held := slices.Contains(g.GetFinalizers(), gadgetFinalizer)
	switch {
	case m.Stale:
	case deleting && held:
		o.Finalizer = conditions.FinalizerRemove
	case !deleting && !held:
		o.Finalizer = conditions.FinalizerAdd
	}
	return o
}

// runGadgets is the gadget system's Run: an outcome per Gadget.
func runGadgets(f *scenario.File, _ bool) ([]scenario.Outcome, error) {
	var obs gadgetObserved
	if err := f.DecodeObserved(&obs); err != nil {
		return nil, err
	}
	var gs []*gadget
	configs := map[string][]string{}
	for i, raw := range f.Objects {
		g := &gadget{}
		if err := json.Unmarshal(raw, g); err != nil {
			return nil, fmt.Errorf("objects[%d]: %w", i, err)
		}
		switch g.Kind {
		case gadgetGVK.Kind:
			gs = append(gs, g)
		case "ConfigMap":
			configs[g.Namespace] = append(configs[g.Namespace], g.Name)
		}
	}
	out := make([]scenario.Outcome, 0, len(gs))
	for _, g := range gs {
		out = append(out, gadgetOutcome(g, configs[g.Namespace], obs, f.Now.Time))
	}
	return out, nil
}

// generateGadgets draws up to four Gadgets of two namespaces, some
// deleted, some naming a ConfigMap that may be missing, and now and then
// an observed block that finds some of them unhealthy.
func generateGadgets(seed int) (*scenario.File, error) {
	r := rand.New(rand.NewPCG(uint64(seed), 2))
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	f := &scenario.File{Name: fmt.Sprintf("gadgets, seed %d", seed), System: "gadgets", Now: metav1.NewTime(now)}
	nss := []string{"a", "b"}
	add := func(obj map[string]any) error {
		raw, err := json.Marshal(obj)
		f.Objects = append(f.Objects, raw)
		return err
	}
	var obs gadgetObserved
	for i := range 1 + r.IntN(4) {
		meta := map[string]any{"namespace": nss[r.IntN(2)], "name": fmt.Sprintf("g%d", i), "generation": 1 + r.IntN(3),
			"creationTimestamp": now.Add(-time.Hour).Format(time.RFC3339)}
		spec := map[string]any{"size": r.IntN(4) - 1}
		if r.IntN(2) == 0 {
			spec["configRef"] = fmt.Sprintf("cfg-%d", r.IntN(2))
		}
		if r.IntN(5) == 0 {
			meta["deletionTimestamp"], meta["finalizers"] = now.Add(-10*time.Minute).Format(time.RFC3339), []string{gadgetFinalizer}
		}
		if r.IntN(3) == 0 {
			obs.Unhealthy = append(obs.Unhealthy, fmt.Sprint(meta["namespace"], "/", meta["name"]))
		}
		if err := add(map[string]any{"apiVersion": "example.dev/v1", "kind": "Gadget", "metadata": meta, "spec": spec}); err != nil {
			return nil, err
		}
	}
	for i := range r.IntN(3) {
		if err := add(map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"namespace": nss[r.IntN(2)], "name": fmt.Sprintf("cfg-%d", i)}}); err != nil {
			return nil, err
		}
	}
	if obs.Unhealthy != nil {
		raw, err := json.Marshal(obs)
		if err != nil {
			return nil, err
		}
		f.Observed = raw
	}
	return f, nil
}

// gadgetBug is one planted bug of the gadget host.
type gadgetBug int

const (
	gadgetCorrect gadgetBug = iota
	// gadgetReleaseFirst lets a deleted Gadget's finalizer go before its
	// Deleting status is written.
	gadgetReleaseFirst
	// gadgetBlind evaluates without what was observed.
	gadgetBlind
)

// gadgetHost is a host of the gadget system: a request evaluates the
// Gadget of its name against the ConfigMaps of its namespace (read
// typed) and what Env observed, writes its status when one is due, and
// changes its finalizer only in a later pass, once no write is due. It
// writes only as the leader.
type gadgetHost struct {
	c   client.Client
	env hostcheck.Env
	bug gadgetBug
}

func newGadgetHost(b gadgetBug) hostcheck.NewHost {
	return func(c client.Client, env hostcheck.Env) (reconcile.Reconciler, error) {
		return &gadgetHost{c: c, env: env, bug: b}, nil
	}
}

func (h *gadgetHost) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	if !h.env.Leader() {
		return reconcile.Result{}, nil
	}
	g := &gadget{}
	if err := h.c.Get(ctx, req.NamespacedName, g); err != nil {
		if apierrors.IsNotFound(err) {
			return reconcile.Result{}, nil
		}
		return reconcile.Result{}, err
	}
	var cms corev1.ConfigMapList
	if err := h.c.List(ctx, &cms, client.InNamespace(req.Namespace)); err != nil {
		return reconcile.Result{}, err
	}
	var configs []string
	for _, cm := range cms.Items {
		configs = append(configs, cm.Name)
	}
	obs, err := hostcheck.ObservedAs[gadgetObserved](h.env)
	if err != nil {
		return reconcile.Result{}, err
	}
	if h.bug == gadgetBlind {
		obs = gadgetObserved{}
	}
	o := gadgetOutcome(g, configs, obs, h.env.Now())
	if h.bug == gadgetReleaseFirst && o.Finalizer == conditions.FinalizerRemove {
		return reconcile.Result{}, h.finalizer(ctx, g, o.Finalizer)
	}
	switch {
	case o.Write:
		return reconcile.Result{}, h.writeStatus(ctx, g, gadgetVocabulary.Owned(o.Conditions))
	case o.Finalizer != conditions.FinalizerKeep:
		return reconcile.Result{}, h.finalizer(ctx, g, o.Finalizer)
	}
	return reconcile.Result{}, nil
}

// writeStatus applies our conditions, guarded by the resourceVersion
// they were computed from.
func (h *gadgetHost) writeStatus(ctx context.Context, g *gadget, owned []metav1.Condition) error {
	conds := make([]any, 0, len(owned))
	for _, c := range owned {
		m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&c)
		if err != nil {
			return err
		}
		conds = append(conds, m)
	}
	a := &unstructured.Unstructured{Object: map[string]any{"status": map[string]any{"conditions": conds}}}
	a.SetGroupVersionKind(gadgetGVK)
	a.SetNamespace(g.Namespace)
	a.SetName(g.Name)
	a.SetResourceVersion(g.ResourceVersion)
	return h.c.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(a), client.FieldOwner(gadgetManager), client.ForceOwnership)
}

// finalizer adds or removes ours with a merge patch guarded by the
// resourceVersion read.
func (h *gadgetHost) finalizer(ctx context.Context, g *gadget, a conditions.FinalizerAction) error {
	x := g.DeepCopyObject().(*gadget)
	if a == conditions.FinalizerAdd {
		x.SetFinalizers(append(x.GetFinalizers(), gadgetFinalizer))
	} else {
		x.SetFinalizers(slices.DeleteFunc(x.GetFinalizers(), func(f string) bool { return f == gadgetFinalizer }))
	}
	return h.c.Patch(ctx, x, client.MergeFromWithOptions(g, client.MergeFromWithOptimisticLock{}))
}
