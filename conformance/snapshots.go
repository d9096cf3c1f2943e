package conformance

import (
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/scenario"
)

// BindingScenario writes a binding snapshot as a scenario file: every
// object as a manifest, the broker, its memory and the probe results, so
// that the scenario runner rebuilds the same snapshot. Probe bodies are
// kept as raw text (cardText); a parsed card is written out as JSON. The
// file has the name "generated" and no expectations.
//
// A file holds one object per kind, namespace and name, as the API server
// does and as the strict decoder demands; a snapshot that lists a name
// twice (the engine reads such twins as neither) is written with the
// first of them only.
func BindingScenario(s binding.Snapshot) (*scenario.File, error) {
	f := &scenario.File{Name: "generated", System: "binding", Now: metav1.NewTime(s.Now)}
	w := objectWriter{f: f}
	leader, listed := s.Broker.Leader, s.Broker.ProberListed
	started := metav1.NewTime(s.Broker.StartedAt)
	f.Broker = &scenario.Broker{StartedAt: &started, ConfigSource: string(s.Broker.ConfigSource),
		Leader: &leader, Name: s.Broker.Name, ProberListed: &listed}
	for i := range s.Bindings {
		if err := w.add(akv1.APIVersion, akv1.KindBinding, &s.Bindings[i]); err != nil {
			return nil, err
		}
	}
	for i := range s.Backends {
		if err := w.add(akv1.APIVersion, akv1.KindAgentBackend, &s.Backends[i]); err != nil {
			return nil, err
		}
	}
	for i := range s.Connections {
		if err := w.add(akv1.APIVersion, akv1.KindChatConnection, &s.Connections[i]); err != nil {
			return nil, err
		}
	}
	for _, m := range s.Served.Objects {
		var spec any
		switch {
		case m.Binding != nil:
			spec = m.Binding
		case m.Backend != nil:
			spec = m.Backend
		case m.Connection != nil:
			spec = m.Connection
		}
		raw, err := json.Marshal(spec)
		if err != nil {
			return nil, err
		}
		f.Served = append(f.Served, scenario.Served{Kind: m.Kind, Namespace: m.Namespace, Name: m.Name,
			UID: string(m.UID), Generation: m.Generation, Spec: raw})
	}
	for _, p := range s.Probes {
		sp := scenario.Probe{Binding: p.Namespace + "/" + p.Name, UID: string(p.UID), Generation: p.Generation}
		if sp.UID == "" {
			// The format reads an empty uid as "the Binding's current
			// one"; a probe of no object at all is kept as such.
			sp.UID = "none"
		}
		if o := p.Backend; o != nil {
			obs := &scenario.Observation{HTTP: o.HTTPStatus, CardBytes: o.BodyBytes, Error: o.Error,
				RetryAfter: o.RetryAfter, Timeout: o.Timeout, Failed: o.Failed}
			body := o.Body
			if o.Card != nil {
				b, err := json.Marshal(o.Card)
				if err != nil {
					return nil, err
				}
				body = b
			}
			if body != nil {
				text := string(body)
				obs.CardText = &text
			}
			sp.Backend = obs
		}
		if o := p.Channel; o != nil {
			member, archived := o.IsMember, o.IsArchived
			sp.Channel = &scenario.Observation{HTTP: o.HTTPStatus, OK: o.OK, IsMember: &member, IsArchived: &archived,
				Error: o.Error, RetryAfter: o.RetryAfter, Timeout: o.Timeout, Failed: o.Failed}
		}
		f.Probes = append(f.Probes, sp)
	}
	return f, nil
}

// FinOpsScenario writes a FinOps snapshot as a scenario file: every
// object as a manifest (objects of other kinds by identity only), the
// OpenCost document as the pricing ConfigMap, the failing reads and the
// collection run. Failures lose their apiVersion, which the format does
// not carry. The file has the name "generated" and no expectations; like
// BindingScenario's, it holds one object per kind, namespace and name.
func FinOpsScenario(s finops.Snapshot) (*scenario.File, error) {
	f := &scenario.File{Name: "generated", System: "finops", Now: metav1.NewTime(s.Now)}
	w := objectWriter{f: f}
	var err error
	add := func(apiVersion, kind string, obj any) {
		if err == nil {
			err = w.add(apiVersion, kind, obj)
		}
	}
	for i := range s.PriceBooks {
		add(finopsv1.APIVersion, finopsv1.KindPriceBook, &s.PriceBooks[i])
	}
	for i := range s.Offerings {
		add(finopsv1.APIVersion, finopsv1.KindOffering, &s.Offerings[i])
	}
	for i := range s.Subscriptions {
		add(finopsv1.APIVersion, finopsv1.KindSubscription, &s.Subscriptions[i])
	}
	for i := range s.CostJobs {
		add(finopsv1.APIVersion, finopsv1.KindCostJob, &s.CostJobs[i])
	}
	for i := range s.Providers {
		add(finopsv1.APIVersion, finopsv1.KindFinOpsProvider, &s.Providers[i])
	}
	pricingNS := "opencost"
	for _, o := range s.Objects {
		if o.Kind == "ConfigMap" && o.Name == finops.PricingConfigMap {
			pricingNS = o.Namespace
			if s.PricingDocument != nil {
				continue // written below, with its data
			}
		}
		add(o.APIVersion, o.Kind, map[string]any{"metadata": identity(o.Namespace, o.Name)})
	}
	if s.PricingDocument != nil {
		doc, derr := json.Marshal(s.PricingDocument)
		if derr != nil {
			return nil, derr
		}
		add("v1", "ConfigMap", map[string]any{"metadata": identity(pricingNS, finops.PricingConfigMap),
			"data": map[string]string{finops.PricingKey: string(doc)}})
	}
	if err != nil {
		return nil, err
	}
	for _, x := range s.Failures {
		f.Failures = append(f.Failures, scenario.Failure{Kind: x.Kind, Namespace: x.Namespace, Name: x.Name})
	}
	if c := s.Collection; c != nil {
		sc := &scenario.Collection{ScheduledHour: metav1.NewTime(c.ScheduledHour)}
		for _, r := range c.Results {
			sc.Results = append(sc.Results, scenario.CollectionResult{Subscription: r.Subscription.Namespace + "/" + r.Subscription.Name,
				Buckets: r.Buckets, Source: string(r.Source)})
		}
		f.Collection = sc
	}
	return f, nil
}

func identity(ns, name string) map[string]string {
	m := map[string]string{"name": name}
	if ns != "" {
		m["namespace"] = ns
	}
	return m
}

// objectWriter appends manifests to a scenario file, one per kind,
// namespace and name.
type objectWriter struct {
	f    *scenario.File
	seen map[[4]string]bool
}

// add appends obj as a manifest of the given apiVersion and kind,
// whatever its TypeMeta says, unless an object of that kind, namespace
// and name is already written.
func (w *objectWriter) add(apiVersion, kind string, obj any) error {
	raw, err := json.Marshal(obj)
	if err != nil {
		return fmt.Errorf("%s: %w", kind, err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("%s: %w", kind, err)
	}
	var meta struct{ Namespace, Name string }
	if err := json.Unmarshal(m["metadata"], &meta); err != nil && len(m["metadata"]) > 0 {
		return fmt.Errorf("%s: metadata: %w", kind, err)
	}
	key := [4]string{apiVersion, kind, meta.Namespace, meta.Name}
	if w.seen[key] {
		return nil
	}
	if w.seen == nil {
		w.seen = map[[4]string]bool{}
	}
	w.seen[key] = true
	f := w.f
	m["apiVersion"], _ = json.Marshal(apiVersion)
	m["kind"], _ = json.Marshal(kind)
	out, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("%s: %w", kind, err)
	}
	f.Objects = append(f.Objects, out)
	return nil
}
