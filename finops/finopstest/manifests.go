package finopstest

import (
	"encoding/json"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/manifest"
	"github.com/condengine/condengine/system"
)

// check reads one manifest as the system's Run does (finops.DecodeDocument),
// so that a tool reading a stream reports its problem at its place
// (system.System.Check).
func check(d *manifest.Document) error {
	var s finops.Snapshot
	return finops.DecodeDocument(&s, d)
}

// references lists the target of each Subscription's lifecycle among
// objects, each once, in the order met: the objects of any kind that an
// evaluation reads by name (system.System.References). A target missing
// its apiVersion, kind or name names nothing and is left out.
func references(objects []json.RawMessage) []system.Ref {
	var out []system.Ref
	seen := map[finopsv1.TargetRef]bool{}
	for _, raw := range objects {
		var s finopsv1.Subscription
		if err := json.Unmarshal(raw, &s); err != nil || s.APIVersion != finopsv1.APIVersion || s.Kind != finopsv1.KindSubscription ||
			s.Spec.Lifecycle == nil || s.Spec.Lifecycle.TargetRef == nil {
			continue
		}
		t := *s.Spec.Lifecycle.TargetRef
		if seen[t] || t.APIVersion == "" || t.Kind == "" || t.Name == "" {
			continue
		}
		seen[t] = true
		out = append(out, system.Ref{APIVersion: t.APIVersion, Kind: t.Kind, Namespace: t.Namespace, Name: t.Name})
	}
	return out
}
