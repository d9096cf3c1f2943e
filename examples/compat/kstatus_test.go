package compat_test

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"
	"sigs.k8s.io/yaml"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
)

// seed evaluates the Bindings of the seed (cmd/condengine/demo/
// binding.yaml: the `kubectl get akbinding -A` of the README) and returns
// each with the conditions the broker writes, keyed namespace/name.
func seed(t *testing.T) (map[string]*akv1.Binding, time.Time) {
	t.Helper()
	raw, err := os.ReadFile("../../cmd/condengine/demo/binding.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Now     time.Time         `json:"now"`
		Objects []json.RawMessage `json:"objects"`
	}
	if err := yaml.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	objs, err := binding.DecodeObjects(file.Objects)
	if err != nil {
		t.Fatal(err)
	}
	snap := binding.Snapshot{Now: file.Now,
		Broker:   binding.Broker{Leader: true, StartedAt: file.Now.Add(-time.Hour), ProberListed: true},
		Bindings: objs.Bindings, Backends: objs.Backends, Connections: objs.Connections}
	// The seed's prober found both served agents and channels well.
	for _, uid := range []string{"u-team-a-chat", "u-support"} {
		snap.Probes = append(snap.Probes, binding.ProbeResult{UID: types.UID(uid), Generation: 1,
			Backend: &binding.BackendObservation{HTTPStatus: 200,
				Body: []byte(`{"name":"echo","version":"1.0","supportedInterfaces":[{"url":"https://echo/a2a","protocolBinding":"JSONRPC"}]}`)},
			Channel: &binding.ChannelObservation{OK: true, IsMember: true}})
	}
	res, err := binding.Evaluate(snap)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*akv1.Binding{}
	for _, r := range res.Bindings {
		for i := range objs.Bindings {
			b := &objs.Bindings[i]
			if b.UID == r.UID {
				b.Status.Conditions = r.Conditions
				out[b.Namespace+"/"+b.Name] = b
			}
		}
	}
	return out, file.Now
}

// kstatusOf is what kstatus (and so kubectl wait --for=jsonpath on
// kstatus' output, Flux and Argo CD's generic health) computes for obj.
func kstatusOf(t *testing.T, obj *akv1.Binding) string {
	t.Helper()
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{Object: m}
	u.SetGroupVersionKind(akv1.GroupVersion.WithKind(akv1.KindBinding))
	res, err := status.Compute(u)
	if err != nil {
		t.Fatal(err)
	}
	return res.Status.String() + " " + res.Message
}

// readyOf is the Binding's Ready condition as the broker wrote it, with
// whether it speaks for the current generation.
func readyOf(b *akv1.Binding) string {
	for _, c := range b.Status.Conditions {
		if c.Type == binding.TypeReady {
			fresh := "current generation"
			if c.ObservedGeneration != b.Generation {
				fresh = "older generation"
			}
			return string(c.Status) + "/" + c.Reason + " (" + fresh + ")"
		}
	}
	return "no Ready condition"
}

// TestKstatus_SeedBindings records what kstatus reports for the seed's
// Bindings and for the two moments it misreads: before the broker's first
// write, and after an edit the broker has not yet judged. docs/kstatus.md
// explains each row.
func TestKstatus_SeedBindings(t *testing.T) {
	bindings, now := seed(t)

	// Before the broker's first write: no conditions at all.
	fresh := bindings["team-a/team-a-chat"].DeepCopy()
	fresh.Name, fresh.Status = "fresh", akv1.BindingStatus{}
	// An edit (generation 2) that the broker has not judged yet: every
	// condition still speaks for generation 1.
	edited := bindings["team-a/team-a-chat"].DeepCopy()
	edited.Name, edited.Generation = "edited", 2
	// Being deleted.
	deleting := bindings["team-a/team-a-chat"].DeepCopy()
	deleting.Name, deleting.DeletionTimestamp = "deleting", &metav1.Time{Time: now}

	got := map[string][2]string{}
	for _, b := range []*akv1.Binding{bindings["team-a/team-a-chat"], bindings["team-a/late"], bindings["team-b/support"], fresh, edited, deleting} {
		got[b.Namespace+"/"+b.Name] = [2]string{readyOf(b), kstatusOf(t, b)}
	}
	want := map[string][2]string{
		// Served, probed, ready: kstatus agrees.
		"team-a/team-a-chat": {"True/OK (current generation)", "Current Resource is Ready"},
		"team-b/support":     {"True/OK (current generation)", "Current Resource is Ready"},
		// Refused for good (another namespace holds C1): kstatus says
		// InProgress, never Failed, so a wait runs to its timeout.
		"team-a/late": {"False/Accepted:ChannelConflict (current generation)", "InProgress spec.chat.channel: channel C1 is already bound by a Binding in another namespace"},
		// Not ready, yet Current: kstatus has nothing to read.
		"team-a/fresh": {"no Ready condition", "Current Resource is current"},
		// Not judged, yet Current: kstatus reads status.observedGeneration,
		// which the Binding does not have, not the per-condition one.
		"team-a/edited":   {"True/OK (older generation)", "Current Resource is Ready"},
		"team-a/deleting": {"True/OK (current generation)", "Terminating Resource scheduled for deletion"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
