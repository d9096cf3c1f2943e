package bindingtest

import (
	"encoding/json"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

// cluster is how the binding system is evaluated from a live cluster's
// objects (system.Cluster), which hold no probe results.
func cluster() *system.Cluster {
	return &system.Cluster{
		Evaluate: evaluateCluster,
		Unjudged: map[string]string{
			akv1.KindBinding + "/" + binding.TypeBackendReachable: "the prober's card fetch results, which a cluster does not hold; not judged, shown as written",
			akv1.KindBinding + "/" + binding.TypeChannelJoined:    "the prober's channel look results, which a cluster does not hold; not judged, shown as written",
			akv1.KindBinding + "/" + binding.TypeReady:            "the probe results BackendReachable and ChannelJoined depend on, which a cluster does not hold; not judged, shown as written",
		},
	}
}

// probeGuesses are the probe results a broker might have: none yet, all
// good, all failing. A condition is judged only when all three give it
// the same value.
var probeGuesses = []func(b akv1.Binding) *scenario.Probe{
	func(akv1.Binding) *scenario.Probe { return nil },
	func(b akv1.Binding) *scenario.Probe {
		card := `{"name":"a","version":"1","supportedInterfaces":[{"url":"https://a.example/a2a","protocolBinding":"JSONRPC"}]}`
		yes, no := true, false
		return &scenario.Probe{Binding: b.Namespace + "/" + b.Name, UID: string(b.UID), Generation: b.Generation,
			Backend: &scenario.Observation{HTTP: 200, CardText: &card},
			Channel: &scenario.Observation{OK: true, IsMember: &yes, IsArchived: &no}}
	},
	func(b akv1.Binding) *scenario.Probe {
		return &scenario.Probe{Binding: b.Namespace + "/" + b.Name, UID: string(b.UID), Generation: b.Generation,
			Backend: &scenario.Observation{Error: binding.NetErrorRefused},
			Channel: &scenario.Observation{Error: "channel_not_found"}}
	},
}

// evaluateCluster evaluates the objects once per probe guess and, in
// each, once per broker that owns a ChatConnection (the broker named in
// its spec, "" the default), as a leader that reads custom resources,
// has run for a day and remembers nothing. Each Binding takes the answer
// of the first broker that gives one: its ChatConnection's owner, or the
// default broker when the connection is missing (every broker answers
// for such a Binding). A Binding no broker answers for (the engine could
// not use it: missing metadata, a repeated UID) is left out, with its
// problem.
func evaluateCluster(objects []json.RawMessage, now time.Time) (system.ClusterResult, error) {
	var res system.ClusterResult
	objs, err := binding.DecodeObjects(objects)
	if err != nil {
		return res, err
	}
	brokers := []string{""}
	for _, c := range objs.Connections {
		if !slices.Contains(brokers, c.Spec.Broker) {
			brokers = append(brokers, c.Spec.Broker)
		}
	}
	res.Guesses = make([][]scenario.Outcome, len(probeGuesses))
	for g, probe := range probeGuesses {
		f := &scenario.File{Name: "audit", System: Name, Now: metav1.NewTime(now), Objects: objects}
		yes := true
		started := metav1.NewTime(now.Add(-24 * time.Hour))
		f.Broker = &scenario.Broker{Leader: &yes, ProberListed: &yes, StartedAt: &started, ConfigSource: string(binding.ConfigSourceCRDs)}
		for _, b := range objs.Bindings {
			if p := probe(b); p != nil {
				f.Probes = append(f.Probes, *p)
			}
		}
		snap, err := Snapshot(f)
		if err != nil {
			return res, err
		}
		answered := map[bindingKey]bool{}
		for _, name := range brokers {
			snap.Broker.Name = name
			evaluate := binding.Evaluate
			if g == 0 {
				evaluate = binding.Explain
			}
			r, err := evaluate(snap)
			if err != nil {
				return res, err
			}
			if g == 0 && res.LeftOut == nil {
				for _, e := range r.Errors { // the snapshot's, the same for every broker
					res.LeftOut = append(res.LeftOut, system.LeftOut{Kind: e.Kind, Namespace: e.Namespace, Name: e.Name, Problem: e.Problem})
				}
			}
			for _, o := range r.Bindings {
				k := bindingKey{o.Namespace, o.Name}
				if answered[k] {
					continue
				}
				answered[k] = true
				out := scenario.Outcome{Kind: akv1.KindBinding, Namespace: o.Namespace, Name: o.Name, Computed: o.Conditions}
				if out.Computed == nil { // answered: not nil, even when empty
					out.Computed = []metav1.Condition{}
				}
				if g == 0 {
					out.Provenance = o.Provenance
				}
				res.Guesses[g] = append(res.Guesses[g], out)
			}
		}
	}
	return res, nil
}
