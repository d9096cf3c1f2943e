package bindingtest

import (
	"encoding/json"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/policy"
	"github.com/condengine/condengine/internal/wholesec"
	"github.com/condengine/condengine/manifest"
	"github.com/condengine/condengine/scenario"
)

// bindingOutcomes reports, per Binding of the snapshot s evaluated to r
// and in the order of s.Bindings, whether a write is due and the
// conditions the Binding carries afterwards: the written ones when
// shown(i, outcome) says they are written, else the ones it had, read at
// whole seconds. Its status is those conditions as JSON; with explain,
// the computed conditions and their provenance come along. Objects of
// other kinds are read but get no outcome.
func bindingOutcomes(s binding.Snapshot, r binding.Result, explain bool, shown func(i int, o *binding.Outcome) bool) ([]scenario.Outcome, error) {
	results := make(map[bindingKey]*binding.Outcome, len(r.Bindings))
	for i := range r.Bindings {
		results[bindingKey{r.Bindings[i].Namespace, r.Bindings[i].Name}] = &r.Bindings[i]
	}
	out := make([]scenario.Outcome, 0, len(s.Bindings))
	for i := range s.Bindings {
		b := &s.Bindings[i]
		br := results[bindingKey{b.Namespace, b.Name}]
		if br != nil && br.UID != b.UID {
			br = nil // another object under the name: not this one's outcome
		}
		oc := scenario.Outcome{Kind: akv1.KindBinding, Namespace: b.Namespace, Name: b.Name,
			Conditions: wholesec.Conditions(b.Status.Conditions), Write: br != nil && br.Write}
		if br != nil && shown(i, br) {
			oc.Conditions = br.Status.Conditions
		}
		if br != nil && explain {
			oc.Computed, oc.Provenance = br.Conditions, br.Provenance
			if oc.Computed == nil { // answered: not nil, even when empty
				oc.Computed = []metav1.Condition{}
			}
		}
		st, err := json.Marshal(akv1.BindingStatus{Conditions: oc.Conditions})
		if err != nil {
			return nil, err
		}
		oc.Status = st
		out = append(out, oc)
	}
	return out, nil
}

// DefaultBroker is the broker a binding scenario describes where its
// broker block is absent or leaves a field out: the default broker (no
// name), started an hour before now, reading custom resources, leading,
// its prober having listed the Bindings. `condengine eval` assumes the
// same broker for a manifest stream, which has no broker block.
func DefaultBroker(now time.Time) binding.Broker {
	return binding.Broker{StartedAt: now.Add(-time.Hour), ConfigSource: binding.ConfigSourceCRDs, Leader: true, ProberListed: true}
}

// Snapshot builds the binding.Snapshot a binding scenario describes,
// with the format's defaults (DefaultBroker).
func Snapshot(f *scenario.File) (binding.Snapshot, error) {
	if f.System != Name {
		return binding.Snapshot{}, fmt.Errorf("scenario system is %q, not %q", f.System, Name)
	}
	if err := f.Validate(); err != nil {
		return binding.Snapshot{}, err
	}
	objs, err := binding.DecodeObjects(f.Objects)
	if err != nil {
		return binding.Snapshot{}, err
	}
	now := f.Now.Time
	s := binding.Snapshot{
		Now:         now,
		Broker:      DefaultBroker(now),
		Bindings:    objs.Bindings,
		Backends:    objs.Backends,
		Connections: objs.Connections,
	}
	if b := f.Broker; b != nil {
		if b.StartedAt != nil {
			s.Broker.StartedAt = b.StartedAt.Time
		}
		if b.ConfigSource == scenario.ConfigSourceConfigMap {
			s.Broker.ConfigSource = binding.ConfigSourceConfigMap
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
			return binding.Snapshot{}, fmt.Errorf("served[%d]: %w", i, err)
		}
		s.Served.Objects = append(s.Served.Objects, sv)
	}
	uids := make(map[bindingKey]types.UID, len(s.Bindings))
	for _, b := range s.Bindings {
		uids[bindingKey{b.Namespace, b.Name}] = b.UID
	}
	for _, p := range f.Probes {
		s.Probes = append(s.Probes, probeFromScenario(p, uids))
	}
	return s, nil
}

func servedFromScenario(e scenario.Served) (binding.Served, error) {
	sv := binding.Served{Kind: e.Kind, Namespace: e.Namespace, Name: e.Name, UID: types.UID(e.UID), Generation: e.Generation}
	spec := e.Spec
	if len(spec) == 0 {
		spec = json.RawMessage("{}")
	}
	var err error
	switch e.Kind {
	case akv1.KindBinding:
		sv.Binding = new(akv1.BindingSpec)
		err = json.Unmarshal(spec, sv.Binding)
	case akv1.KindAgentBackend:
		sv.Backend = new(akv1.AgentBackendSpec)
		err = json.Unmarshal(spec, sv.Backend)
	case akv1.KindChatConnection:
		sv.Connection = new(akv1.ChatConnectionSpec)
		err = json.Unmarshal(spec, sv.Connection)
	default: // File.Validate refuses it
		return sv, fmt.Errorf("kind: %q is not a kind of the binding system", e.Kind)
	}
	if err != nil {
		return sv, fmt.Errorf("spec: %w", manifest.FieldError(err))
	}
	return sv, nil
}

func probeFromScenario(p scenario.Probe, uids map[bindingKey]types.UID) binding.ProbeResult {
	ns, name, _ := scenario.SplitName(p.Binding)
	r := binding.ProbeResult{UID: types.UID(p.UID), Namespace: ns, Name: name, Generation: p.Generation}
	if r.UID == "" {
		r.UID = uids[bindingKey{ns, name}]
	}
	if o := p.Backend; o != nil {
		b := &binding.BackendObservation{HTTPStatus: o.HTTP, BodyBytes: o.CardBytes, Error: o.Error,
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
		c := &binding.ChannelObservation{HTTPStatus: o.HTTP, OK: o.OK, Error: o.Error,
			RetryAfter: o.RetryAfter, Timeout: o.Timeout, Failed: o.Failed}
		if o.IsMember != nil {
			c.IsMember = *o.IsMember
		}
		if o.IsArchived != nil {
			c.IsArchived = *o.IsArchived
		}
		r.Channel = c
	}
	return r
}

// Run is the scenario runner of the binding system (System().Run): it
// builds the snapshot the file describes, evaluates it, and reports per
// Binding whether a write is due (Write), the status writer's verdict
// (Decision "write", "wait" or "none", WaitUntil and RetryAt for a wait,
// Fight, FightBegins and ForeignEdit), and the conditions the object
// carries once the reconcile is done, with its status as JSON: the
// written ones where the writer writes now, else the ones it had,
// exactly as they stand (a standby, the ConfigMap route, another
// broker's Binding, a held write, nothing changed), read at whole
// seconds as the API server stores them. With explain, the evaluation
// records why (binding.Explain) and each outcome also carries the
// computed conditions and their provenance. It adds one outcome of kind
// scenario.KindProber, named after the broker ("default" for the default
// broker): the prober's verdict at now from the file's prober block (see
// scenario.Prober) and the plan of a pass over the evaluated Bindings.
// The writer's memory comes from the file's writer block (a Binding it
// does not list, or lists under another UID, is one the writer never
// wrote); the replica writes only when broker.leader holds and the route
// is crds.
func Run(f *scenario.File, explain bool) ([]scenario.Outcome, error) {
	snap, err := Snapshot(f)
	if err != nil {
		return nil, err
	}
	evaluate := binding.Evaluate
	if explain {
		evaluate = binding.Explain
	}
	res, err := evaluate(snap)
	if err != nil {
		return nil, err
	}
	lim, err := writerLimits(f.Writer)
	if err != nil {
		return nil, err
	}
	objects := make(map[bindingKey]*akv1.Binding, len(snap.Bindings))
	for i := range snap.Bindings {
		objects[bindingKey{snap.Bindings[i].Namespace, snap.Bindings[i].Name}] = &snap.Bindings[i]
	}
	listed := writerBindings(f.Writer)
	memories := make(map[bindingKey]scenario.WriterMemory, len(listed))
	for _, b := range listed {
		ns, name, _ := scenario.SplitName(b.Binding)
		if objects[bindingKey{ns, name}] == nil {
			return nil, fmt.Errorf("writer: %s is not a Binding of the scenario", b.Binding)
		}
		memories[bindingKey{ns, name}] = b
	}
	// The writer decides for each Binding the engine answers for; the
	// conditions shown are the written ones only where it writes now.
	decisions := make([]policy.Verdict, len(snap.Bindings))
	var derr error
	outs, err := bindingOutcomes(snap, res, explain, func(i int, br *binding.Outcome) bool {
		obj := &snap.Bindings[i]
		var mem policy.Memory
		var looks []metav1.Time
		if wb, ok := memories[bindingKey{obj.Namespace, obj.Name}]; ok && (wb.UID == "" || types.UID(wb.UID) == obj.UID) {
			mem, looks = writerMemory(wb, lim), wb.LookedAt
		}
		// Earlier decisions on the same world leave their memory, as a
		// host keeps it between ticks; none of them may write.
		for j, at := range looks {
			d, m, err := lim.DecideOutcome(br, obj.Status.Conditions, mem, at.Time)
			if err == nil && d.Write {
				err = fmt.Errorf("writer: %s/%s lookedAt[%d]: the writer writes at %s, so the scenario must show that write",
					obj.Namespace, obj.Name, j, at.UTC().Format(time.RFC3339Nano))
			}
			if err != nil {
				if derr == nil {
					derr = err
				}
				return false
			}
			mem = m
		}
		d, _, err := lim.DecideOutcome(br, obj.Status.Conditions, mem, f.Now.Time)
		if err != nil && derr == nil {
			derr = err
		}
		decisions[i] = d
		return d.Action == policy.Write
	})
	if err == nil {
		err = derr
	}
	if err != nil {
		return nil, err
	}
	for i := range outs {
		o, d := &outs[i], decisions[i] // None for a Binding the engine does not answer for
		o.Decision, o.Skip = d.Action.String(), d.Skip
		if d.Action == policy.Wait {
			o.WaitUntil, o.RetryAt = metav1.NewTime(d.At), d.At
		}
		o.Fight, o.FightBegins, o.ForeignEdit = d.Fight, d.FightBegins, d.ForeignEdit
	}
	po, err := proberOutcome(f, snap, res)
	if err != nil {
		return nil, err
	}
	return append(outs, po), nil
}

// bindingKey identifies an object of the binding system by namespace and
// name.
type bindingKey struct{ ns, name string }

// proberOutcome is the prober's verdict at the scenario's now, and the
// plan of a pass over the evaluation's Bindings.
func proberOutcome(f *scenario.File, snap binding.Snapshot, res binding.Result) (scenario.Outcome, error) {
	lim, err := proberLimits(f.Prober)
	if err != nil {
		return scenario.Outcome{}, err
	}
	s := proberState(f.Prober, lim, snap.Broker.StartedAt)
	if f.Prober != nil {
		// Earlier looks leave their state, as a host keeps it between
		// ticks; none of them may start a pass.
		for i, at := range f.Prober.LookedAt {
			var d policy.PassDecision
			if d, s = lim.DecidePass(s, at.Time); d.Start {
				return scenario.Outcome{}, fmt.Errorf("prober.lookedAt[%d]: a pass starts at %s, so the scenario must show that pass",
					i, at.UTC().Format(time.RFC3339Nano))
			}
		}
	}
	d, _ := lim.DecidePass(s, f.Now.Time)
	targets := make([]policy.Target, 0, len(res.Bindings))
	for _, b := range res.Bindings {
		targets = append(targets, policy.Target{Namespace: b.Namespace, Name: b.Name, UID: b.UID,
			Generation: b.ServedGeneration, Served: b.Served})
	}
	plan := lim.Plan(targets)
	pass := &scenario.Pass{Start: d.Start, At: d.At, Cause: causeName(d.Cause),
		Targets: make([]scenario.PassTarget, 0, len(plan.Targets)), AtOnce: plan.AtOnce,
		ProbeTimeout: plan.ProbeTimeout, MaxDuration: plan.MaxDuration()}
	for _, t := range plan.Targets {
		pass.Targets = append(pass.Targets, scenario.PassTarget{Binding: t.Namespace + "/" + t.Name, Generation: t.Generation})
	}
	name := snap.Broker.Name
	if name == "" {
		name = "default"
	}
	return scenario.Outcome{Kind: scenario.KindProber, Name: name, Pass: pass}, nil
}
