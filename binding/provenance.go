package binding

import (
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// Rule IDs of the Binding's conditions; Rules lists them with a sentence
// each.
const (
	ruleAcceptedOK           = "binding/accepted/ok"
	ruleInvalidSpec          = "binding/accepted/invalid-spec"
	ruleBackendNotFound      = "binding/accepted/backend-not-found"
	ruleBackendRejected      = "binding/accepted/backend-rejected"
	ruleConnectionNotFound   = "binding/accepted/connection-not-found"
	ruleConnectionRejected   = "binding/accepted/connection-rejected"
	ruleNamespaceNotAllowed  = "binding/accepted/namespace-not-allowed"
	ruleChannelConflict      = "binding/accepted/channel-conflict"
	ruleAcceptedRejected     = "binding/accepted/rejected"
	ruleBackendProbe         = "binding/backend-reachable/probe-result"
	ruleBackendPending       = "binding/backend-reachable/pending"
	ruleBackendKept          = "binding/backend-reachable/kept-across-failover"
	ruleChannelProbe         = "binding/channel-joined/probe-result"
	ruleChannelPending       = "binding/channel-joined/pending"
	ruleChannelKept          = "binding/channel-joined/kept-across-failover"
	ruleReadyOK              = "binding/ready/ok"
	ruleReadyProberNotListed = "binding/ready/prober-not-listed"
	ruleReadyFromAccepted    = "binding/ready/from-accepted"
	ruleReadyFromProbe       = "binding/ready/from-probe-condition"
	ruleStaleMemory          = "binding/stale-memory"
)

// acceptedRules maps Accepted's reasons to the rule that writes each.
var acceptedRules = map[string]string{
	ReasonOK:                  ruleAcceptedOK,
	ReasonInvalidSpec:         ruleInvalidSpec,
	ReasonBackendNotFound:     ruleBackendNotFound,
	ReasonBackendRejected:     ruleBackendRejected,
	ReasonConnectionNotFound:  ruleConnectionNotFound,
	ReasonConnectionRejected:  ruleConnectionRejected,
	ReasonNamespaceNotAllowed: ruleNamespaceNotAllowed,
	ReasonChannelConflict:     ruleChannelConflict,
	ReasonRejected:            ruleAcceptedRejected,
}

// Rules is the table of the rules that decide a Binding's conditions, one
// sentence each, in the order they are tried. The slice is a copy.
func Rules() []conditions.Rule {
	v := Vocabulary
	one := func(id, typ, sentence string, st metav1.ConditionStatus, reason string) conditions.Rule {
		return conditions.Rule{ID: id, Kind: akv1.KindBinding, Types: []string{typ}, Sentence: sentence, Reasons: []conditions.Pair{{Status: st, Reason: reason}}}
	}
	some := func(id, typ, sentence string, keep func(conditions.Pair) bool) conditions.Rule {
		return conditions.Rule{ID: id, Kind: akv1.KindBinding, Types: []string{typ}, Sentence: sentence, Reasons: v.Pairs(typ, keep)}
	}
	notPending := func(p conditions.Pair) bool { return p.Reason != ReasonPending }
	prefixed := func(prefixes ...string) func(conditions.Pair) bool {
		return func(p conditions.Pair) bool {
			return slices.ContainsFunc(prefixes, func(x string) bool { return strings.HasPrefix(p.Reason, x+":") })
		}
	}
	return []conditions.Rule{
		one(ruleInvalidSpec, TypeAccepted, "a field of the Binding's current generation breaks one of the broker's checks", sFalse, ReasonInvalidSpec),
		one(ruleBackendNotFound, TypeAccepted, "spec.agent.backendRef names no AgentBackend in the snapshot", sFalse, ReasonBackendNotFound),
		one(ruleBackendRejected, TypeAccepted, "the referenced AgentBackend's current generation fails its checks", sFalse, ReasonBackendRejected),
		one(ruleConnectionNotFound, TypeAccepted, "spec.chat.connectionRef names no ChatConnection in the snapshot", sFalse, ReasonConnectionNotFound),
		one(ruleConnectionRejected, TypeAccepted, "the referenced ChatConnection's current generation fails its checks", sFalse, ReasonConnectionRejected),
		one(ruleNamespaceNotAllowed, TypeAccepted, "a referenced object in another namespace does not list the Binding's namespace in allowedNamespaces", sFalse, ReasonNamespaceNotAllowed),
		one(ruleChannelConflict, TypeAccepted, "an older Binding (by creationTimestamp, then namespace, name and UID) holds the same channel on the same ChatConnection", sFalse, ReasonChannelConflict),
		one(ruleAcceptedRejected, TypeAccepted, "a finding outside the named reasons refuses the Binding", sFalse, ReasonRejected),
		one(ruleAcceptedOK, TypeAccepted, "every check passes and the Binding holds its channel", sTrue, ReasonOK),
		some(ruleBackendProbe, TypeBackendReachable, "the newest card fetch of a generation not above the served one decides, by HTTP status, error, timeout and card", notPending),
		one(ruleBackendPending, TypeBackendReachable, "no card fetch has finished for the served generation and no good condition of it is on the object", sUnknown, ReasonPending),
		some(ruleBackendKept, TypeBackendReachable, "no fetch has finished since a failover, so the good condition already on the object for the served generation is kept", notPending),
		some(ruleChannelProbe, TypeChannelJoined, "the newest channel look of a generation not above the served one decides, by the platform's answer", notPending),
		one(ruleChannelPending, TypeChannelJoined, "no channel look has finished for the served generation and no good condition of it is on the object", sUnknown, ReasonPending),
		some(ruleChannelKept, TypeChannelJoined, "no look has finished since a failover, so the good condition already on the object for the served generation is kept", notPending),
		one(ruleReadyProberNotListed, TypeReady, "the prober has not listed the Binding since the broker started and a probe condition is pending", sUnknown, ReasonPending),
		some(ruleReadyFromAccepted, TypeReady, "Accepted is not True, so Ready carries its status and Accepted:<reason>", prefixed(TypeAccepted)),
		some(ruleReadyFromProbe, TypeReady, "the first probe condition that is not True gives Ready its status and <type>:<reason>", prefixed(TypeBackendReachable, TypeChannelJoined)),
		one(ruleReadyOK, TypeReady, "Accepted and both probe conditions are True", sTrue, ReasonOK),
		{ID: ruleStaleMemory, Kind: akv1.KindBinding, Sentence: "the broker's memory serves a generation above metadata.generation, so the snapshot lags and the conditions are kept as they are"},
	}
}

// Explain is Evaluate with provenance: each Outcome also carries,
// in Provenance, the rule and the evidence behind each of its conditions.
// Evaluate leaves Provenance empty, so the hot path allocates nothing for
// it.
func Explain(s Snapshot) (Result, error) {
	if err := conditions.CheckNow(s.Now); err != nil {
		return Result{}, err
	}
	return evaluate(&s, true), nil
}

func ref(kind string, m *metav1.ObjectMeta) conditions.ObjectRef {
	return conditions.ObjectRef{Kind: kind, Namespace: m.Namespace, Name: m.Name, UID: m.UID, Generation: m.Generation}
}

// explainBinding records why each condition of br reads as it does. It
// reads the same working state evaluator.decide decided from.
func explainBinding(s *Snapshot, b *bstate, o *akv1.Binding, holder *akv1.Binding, probes *probeIndex, desired []metav1.Condition, br *Outcome) []conditions.Provenance {
	self := ref(akv1.KindBinding, &o.ObjectMeta)
	decided := make([]conditions.Provenance, 0, len(desired))
	for _, c := range desired {
		p := conditions.Provenance{Type: c.Type}
		p.Add(self)
		switch c.Type {
		case TypeAccepted:
			explainAccepted(&p, b, o, holder, c.Reason, br)
		case TypeBackendReachable, TypeChannelJoined:
			explainProbe(&p, s, b, o, probes, c, br.ServedGeneration)
		case TypeReady:
			explainReady(&p, desired, c)
		}
		conditions.SortEvidence(&p)
		decided = append(decided, p)
	}
	out := Vocabulary.Attach(br.Conditions, br.Skip == conditions.SkipStale, self, decided)
	if b.staleMemory {
		for i := range out {
			if Vocabulary.Has(out[i].Type) {
				out[i] = conditions.Provenance{Type: out[i].Type, Rule: ruleStaleMemory}
				out[i].Add(self, conditions.FInt("metadata.generation", o.Generation),
					conditions.FInt("memory.servedGeneration", b.old.Generation))
			}
		}
	}
	return out
}

func explainAccepted(p *conditions.Provenance, b *bstate, o *akv1.Binding, holder *akv1.Binding, reason string, br *Outcome) {
	self := p.Evidence[0].Object
	p.Rule = acceptedRules[reason]
	for _, prob := range b.spec.problems {
		p.Add(self, conditions.F("problem", prob))
	}
	if b.spec.backendOK {
		explainRef(p, self, "spec.agent.backendRef", b.backendKey, b.backend != nil, b.backendDenied, func() (conditions.ObjectRef, problems, []string, int64) {
			x := b.backend
			return ref(akv1.KindAgentBackend, &x.obj.ObjectMeta), x.problems, x.allowed, x.runningGen
		})
	}
	if b.spec.connOK {
		explainRef(p, self, "spec.chat.connectionRef", b.connKey, b.conn != nil, b.connDenied, func() (conditions.ObjectRef, problems, []string, int64) {
			x := b.conn
			return ref(akv1.KindChatConnection, &x.obj.ObjectMeta), x.problems, x.allowed, x.runningGen
		})
	}
	if holder != nil {
		p.Add(self, conditions.F("spec.chat.channel", o.Spec.Chat.Channel),
			conditions.FTime("metadata.creationTimestamp", o.CreationTimestamp.Time))
		p.Add(ref(akv1.KindBinding, &holder.ObjectMeta), conditions.F("holds", "channel "+o.Spec.Chat.Channel+" on ChatConnection "+b.connKey.ns+"/"+b.connKey.name),
			conditions.FTime("metadata.creationTimestamp", holder.CreationTimestamp.Time))
	}
	if reason == ReasonOK {
		p.Add(self, conditions.F("spec.chat.channel", o.Spec.Chat.Channel))
	}
	if br.Served && br.ServedGeneration < o.Generation && reason != ReasonOK {
		// A refused edit: the broker goes on serving the last good one.
		p.Add(self, conditions.FInt("memory.servedGeneration", br.ServedGeneration))
	}
}

// explainRef adds what Accepted read of a referenced AgentBackend or
// ChatConnection.
func explainRef(p *conditions.Provenance, self conditions.ObjectRef, path string, key objKey, found, denied bool,
	info func() (conditions.ObjectRef, problems, []string, int64)) {
	if !found {
		p.Add(self, conditions.F(path, key.ns+"/"+key.name+" (not found)"))
		return
	}
	r, probs, allowed, runningGen := info()
	p.Add(self, conditions.F(path, key.ns+"/"+key.name))
	facts := []conditions.Fact{}
	if denied {
		facts = append(facts, conditions.F("spec.allowedNamespaces", "["+strings.Join(allowed, ", ")+"]"))
	}
	for _, prob := range probs {
		facts = append(facts, conditions.F("problem", prob))
	}
	if probs != nil && runningGen > 0 {
		facts = append(facts, conditions.FInt("memory.servedGeneration", runningGen))
	}
	p.Add(r, facts...)
}

func explainProbe(p *conditions.Provenance, s *Snapshot, b *bstate, o *akv1.Binding, probes *probeIndex, c metav1.Condition, servedGen int64) {
	self := p.Evidence[0].Object
	be, ch := probes.pick(s, o.UID, o.Generation, servedGen)
	probeRule, pendingRule, keptRule := ruleBackendProbe, ruleBackendPending, ruleBackendKept
	r, what := be, "probe.backend"
	var v verdict
	if c.Type == TypeChannelJoined {
		probeRule, pendingRule, keptRule = ruleChannelProbe, ruleChannelPending, ruleChannelKept
		r, what = ch, "probe.channel"
		if ch != nil {
			v = classifyChannel(ch.Channel)
		}
		if b.conn != nil {
			p.Add(ref(akv1.KindChatConnection, &b.conn.obj.ObjectMeta), conditions.F("spec.platform", b.conn.obj.Spec.Platform))
		}
	} else {
		if be != nil {
			v = classifyBackend(be.Backend)
		}
		if b.backend != nil {
			p.Add(ref(akv1.KindAgentBackend, &b.backend.obj.ObjectMeta), conditions.F("spec.url", b.backend.obj.Spec.URL))
		}
	}
	p.Add(self, conditions.FInt("servedGeneration", servedGen))
	switch {
	case r != nil:
		p.Rule = probeRule
		res := v.cause
		if res == "" {
			res = string(v.status) + " " + v.reason
		}
		p.Add(self, conditions.FInt(what+".generation", r.Generation), conditions.F(what+".result", res))
	case c.Reason == ReasonPending:
		p.Rule = pendingRule
		p.Add(self, conditions.F(what, "no finished result for a generation up to the served one"))
	default:
		p.Rule = keptRule
		if cur := conditions.Find(o.Status.Conditions, c.Type); cur != nil {
			p.Add(self, conditions.F("status.conditions["+c.Type+"].reason", cur.Reason),
				conditions.FInt("status.conditions["+c.Type+"].observedGeneration", cur.ObservedGeneration),
				conditions.FTime("status.conditions["+c.Type+"].lastTransitionTime", cur.LastTransitionTime.Time),
				conditions.FTime("metadata.creationTimestamp", o.CreationTimestamp.Time))
		}
	}
}

func explainReady(p *conditions.Provenance, prior []metav1.Condition, c metav1.Condition) {
	self := p.Evidence[0].Object
	if typ, _, ok := strings.Cut(c.Reason, ":"); ok {
		p.From = typ
		if typ == TypeAccepted {
			p.Rule = ruleReadyFromAccepted
		} else {
			p.Rule = ruleReadyFromProbe
		}
		p.Add(self, conditions.F("status.conditions["+typ+"]", c.Reason[len(typ)+1:]))
		return
	}
	if c.Reason == ReasonPending {
		p.Rule = ruleReadyProberNotListed
		p.Add(conditions.ObjectRef{}, conditions.F("broker.proberListed", "false"))
		return
	}
	p.Rule = ruleReadyOK
	for _, x := range prior {
		if x.Type != TypeReady {
			p.Add(self, conditions.F("status.conditions["+x.Type+"]", string(x.Status)+" "+x.Reason))
		}
	}
}
