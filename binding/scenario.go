package binding

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/condengine/condengine/manifest"

	"k8s.io/apimachinery/pkg/types"

	"github.com/condengine/condengine/scenario"
)

// RunScenario evaluates a binding scenario: it builds the Snapshot the
// file describes, evaluates it, and reports per Binding the conditions the
// object carries afterwards (the written ones when a write is due, else
// the ones it had), whether a write is due, and its status as JSON.
// Objects of other kinds are read but get no outcome. A file's writer
// block belongs to package binding/runtime and is not read here.
func RunScenario(f *scenario.File) ([]scenario.Outcome, error) {
	s, err := SnapshotFromScenario(f)
	if err != nil {
		return nil, err
	}
	r, err := Evaluate(s)
	if err != nil {
		return nil, err
	}
	byID := make(map[objKey]*Outcome, len(r.Bindings))
	for i := range r.Bindings {
		byID[objKey{r.Bindings[i].Namespace, r.Bindings[i].Name}] = &r.Bindings[i]
	}
	out := make([]scenario.Outcome, 0, len(s.Bindings))
	for i := range s.Bindings {
		o := &s.Bindings[i]
		oc := scenario.Outcome{Kind: KindBinding, Namespace: o.Namespace, Name: o.Name, Conditions: o.Status.Conditions}
		if br := byID[objKey{o.Namespace, o.Name}]; br != nil && br.UID == o.UID {
			oc.Write = br.Write
			if br.Write {
				oc.Conditions = br.Conditions
			}
		}
		st, err := json.Marshal(Status{Conditions: oc.Conditions})
		if err != nil {
			return nil, err
		}
		oc.Status = st
		out = append(out, oc)
	}
	return out, nil
}

// SnapshotFromScenario builds the Snapshot a binding scenario describes,
// with the format's defaults: the broker started an hour before now,
// reads custom resources, leads, and its prober has listed the Bindings.
func SnapshotFromScenario(f *scenario.File) (Snapshot, error) {
	if f.System != scenario.SystemBinding {
		return Snapshot{}, fmt.Errorf("scenario system is %q, not %q", f.System, scenario.SystemBinding)
	}
	objs, err := DecodeObjects(f.Objects)
	if err != nil {
		return Snapshot{}, err
	}
	now := f.Now.Time
	s := Snapshot{
		Now:         now,
		Broker:      Broker{StartedAt: now.Add(-time.Hour), ConfigSource: ConfigSourceCRDs, Leader: true, ProberListed: true},
		Bindings:    objs.Bindings,
		Backends:    objs.Backends,
		Connections: objs.Connections,
	}
	if b := f.Broker; b != nil {
		if b.StartedAt != nil {
			s.Broker.StartedAt = b.StartedAt.Time
		}
		switch ConfigSource(b.ConfigSource) {
		case "", ConfigSourceCRDs:
		case ConfigSourceConfigMap:
			s.Broker.ConfigSource = ConfigSourceConfigMap
		default:
			return Snapshot{}, fmt.Errorf("broker.configSource: %q is not crds or configmap", b.ConfigSource)
		}
		if b.Leader != nil {
			s.Broker.Leader = *b.Leader
		}
		if b.ProberListed != nil {
			s.Broker.ProberListed = *b.ProberListed
		}
		s.Broker.Name = b.Name
	}
	for i, e := range f.Served {
		sv, err := servedFromScenario(e)
		if err != nil {
			return Snapshot{}, fmt.Errorf("served[%d]: %w", i, err)
		}
		s.Served.Served = append(s.Served.Served, sv)
	}
	uids := make(map[objKey]types.UID, len(s.Bindings))
	for _, b := range s.Bindings {
		uids[objKey{b.Namespace, b.Name}] = b.UID
	}
	for i, p := range f.Probes {
		pr, err := probeFromScenario(p, uids)
		if err != nil {
			return Snapshot{}, fmt.Errorf("probes[%d]: %w", i, err)
		}
		s.Probes = append(s.Probes, pr)
	}
	return s, nil
}

func servedFromScenario(e scenario.Served) (Served, error) {
	sv := Served{Kind: e.Kind, Namespace: e.Namespace, Name: e.Name, UID: types.UID(e.UID), Generation: e.Generation}
	spec := e.Spec
	if len(spec) == 0 {
		spec = json.RawMessage("{}")
	}
	var err error
	switch e.Kind {
	case KindBinding:
		sv.Binding = new(BindingSpec)
		err = json.Unmarshal(spec, sv.Binding)
	case KindAgentBackend:
		sv.Backend = new(AgentBackendSpec)
		err = json.Unmarshal(spec, sv.Backend)
	case KindChatConnection:
		sv.Connection = new(ChatConnectionSpec)
		err = json.Unmarshal(spec, sv.Connection)
	default:
		return sv, fmt.Errorf("kind: %q is not %s, %s or %s", e.Kind, KindBinding, KindAgentBackend, KindChatConnection)
	}
	if err != nil {
		return sv, fmt.Errorf("spec: %w", manifest.FieldError(err))
	}
	return sv, nil
}

func probeFromScenario(p scenario.Probe, uids map[objKey]types.UID) (ProbeResult, error) {
	ns, name, ok := strings.Cut(p.Binding, "/")
	if !ok || ns == "" || name == "" {
		return ProbeResult{}, fmt.Errorf("binding: %q is not namespace/name", p.Binding)
	}
	r := ProbeResult{UID: types.UID(p.UID), Namespace: ns, Name: name, Generation: p.Generation}
	if r.UID == "" {
		r.UID = uids[objKey{ns, name}]
	}
	if o := p.Backend; o != nil {
		b := &BackendObservation{HTTPStatus: o.HTTP, BodyBytes: o.CardBytes, Error: o.Error,
			RetryAfter: o.RetryAfter, Timeout: o.Timeout, Failed: o.Failed}
		switch {
		case o.CardText != nil:
			b.Body = []byte(*o.CardText)
		case len(o.Card) > 0:
			b.Body = []byte(o.Card)
		}
		r.Backend = b
	}
	if o := p.Channel; o != nil {
		c := &ChannelObservation{HTTPStatus: o.HTTP, OK: o.OK, Error: o.Error,
			RetryAfter: o.RetryAfter, Timeout: o.Timeout, Failed: o.Failed}
		if o.IsMember != nil {
			c.IsMember = *o.IsMember
		}
		if o.IsArchived != nil {
			c.IsArchived = *o.IsArchived
		}
		r.Channel = c
	}
	return r, nil
}
