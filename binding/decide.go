package binding

import (
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// decided is what decide found for one Binding: its outcome and, when
// remember is set, the memory entry of what it serves.
type decided struct {
	outcome  Outcome
	served   Served
	remember bool
}

// decide decides the Binding at position i: where it is served, its four
// (or two) conditions, and whether this broker writes them. owned is
// false for a Binding another broker answers for; it then gets no result.
func (e *evaluator) decide(i int) (d decided, owned bool) {
	s, holders, probes := e.s, e.holders, e.probes
	o := &s.Bindings[i]
	b := &e.st[i]

	// Where the Binding is served after this evaluation.
	var servedGen int64
	var servedSpec *akv1.BindingSpec
	switch {
	case b.passes && b.hasCur && holders[b.curClaim(o)] == int32(i):
		servedGen, servedSpec = o.Generation, &o.Spec
	case b.hasOld && holders[b.oldClaim()] == int32(i):
		servedGen, servedSpec = b.old.Generation, b.old.Binding
	}
	// The ChatConnection the Binding names now decides its owner; with
	// none to be found, every broker's leader answers for it.
	if b.conn != nil && connBroker(b.conn) != s.Broker.Name {
		probes.mark(s, o.UID, "the Binding belongs to another broker")
		return decided{}, false
	}

	var holder *akv1.Binding
	if b.hasCur {
		if h, ok := holders[b.curClaim(o)]; ok && int(h) != i && (b.passes || older(&s.Bindings[h], o)) {
			holder = &s.Bindings[h]
		}
	}
	rec := e.rec
	var self conditions.ObjectRef
	if rec.On() {
		self = ref(akv1.KindBinding, &o.ObjectMeta)
	}
	fs, causes := collectFindings(o, b, holder)
	ar, msg := acceptedVerdict(fs)
	if ar != ruleAcceptedOK {
		if servedSpec != nil && servedGen < o.Generation {
			msg = servingPrefix(o.Generation, servedGen) + msg
		}
		// The message is the Binding's own text with the parts from
		// elsewhere already redacted one by one (collectFindings): only
		// the line and length rule applies to the whole.
		msg = conditions.FitMessage(msg)
	}
	var vs [4]conditions.Verdict
	vs[0] = rules[ar].Verdict(0, msg, o.Generation)
	if rec.On() {
		recordAccepted(rec, self, b, o, holder, ar, servedSpec != nil && servedGen < o.Generation, servedGen)
	}
	n := 1

	if servedSpec != nil {
		be, ch := probes.pick(s, o.UID, o.Generation, servedGen)
		bv, bgen := pending, servedGen
		if be != nil {
			bv, bgen = classifyBackend(be.Backend), be.Generation
		}
		cv, cgen := pending, servedGen
		if ch != nil {
			cv, cgen = classifyChannel(ch.Channel), ch.Generation
		}
		var bcause, ccause *Cause
		vs[1], bcause = probeVerdict(o, TypeBackendReachable, servedGen, bv, bgen)
		vs[2], ccause = probeVerdict(o, TypeChannelJoined, servedGen, cv, cgen)
		if bcause != nil {
			causes = append(causes, *bcause)
		}
		if ccause != nil {
			causes = append(causes, *ccause)
		}
		if rec.On() {
			recordProbe(rec, self, b, o, TypeBackendReachable, servedGen, be, bv, vs[1])
			recordProbe(rec, self, b, o, TypeChannelJoined, servedGen, ch, cv, vs[2])
		}
		n = 3
	} else {
		probes.mark(s, o.UID, "the Binding is not served")
	}
	var from string
	vs[n], from = readyVerdict(s, o, vs[:n])
	if rec.On() {
		recordReady(rec, self, vs[:n], vs[n], from)
	}
	n++
	var desired [4]metav1.Condition
	desired[0] = vs[0].Condition(TypeAccepted)
	for k := 1; k < n-1; k++ {
		desired[k] = vs[k].Condition([...]string{TypeBackendReachable, TypeChannelJoined}[k-1])
	}
	desired[n-1] = vs[n-1].Condition(TypeReady)

	m := Vocabulary.MergeObject(o, o.Status.Conditions, desired[:n], s.Now)
	m.Stale = m.Stale || b.staleMemory
	br := Outcome{
		Outcome: conditions.Outcome{Kind: akv1.KindBinding, Namespace: o.Namespace, Name: o.Name, UID: o.UID,
			Generation: o.Generation, Conditions: m.Conditions},
		Served: servedSpec != nil, ServedGeneration: servedGen,
		Causes: causes,
	}
	br.Decide(m, false)
	if m.Stale {
		br.Conditions = o.Status.Conditions
	}
	if br.Write {
		switch {
		case s.Broker.ConfigSource == ConfigSourceConfigMap:
			br.Write, br.Skip = false, conditions.SkipConfigMapRoute
		case !s.Broker.Leader:
			br.Write, br.Skip = false, conditions.SkipNotLeader
		}
	}
	br.Owned = Vocabulary.Owned(br.Conditions)
	br.Status = akv1.BindingStatus{Conditions: br.Conditions}
	if rec.On() {
		br.Provenance = provenance(rec, b, o, self, &br)
	}
	switch {
	case b.staleMemory:
		// The snapshot lags the memory: keep the memory as it is.
		br.Errors = append(br.Errors, "the memory serves generation "+strconv.FormatInt(b.old.Generation, 10)+
			", above metadata.generation "+strconv.FormatInt(o.Generation, 10))
		d.served, d.remember = *b.old, true
		d.served.Namespace, d.served.Name = o.Namespace, o.Name
	case servedSpec != nil:
		d.served = Served{Kind: akv1.KindBinding, Namespace: o.Namespace, Name: o.Name, UID: o.UID, Generation: servedGen, Binding: servedSpec}
		d.remember = true
	}
	d.outcome = br
	return d, true
}

// probeVerdict decides BackendReachable or ChannelJoined from the
// chosen result. With none it is Pending at the served generation, unless
// the object already carries a good condition of that generation: a fresh
// leader must not write Pending over what the last one found.
func probeVerdict(o *akv1.Binding, typ string, servedGen int64, v verdict, gen int64) (conditions.Verdict, *Cause) {
	probe, pend, kept := ruleBackendProbe, ruleBackendPending, ruleBackendKept
	if typ == TypeChannelJoined {
		probe, pend, kept = ruleChannelProbe, ruleChannelPending, ruleChannelKept
	}
	if v.reason == ReasonPending {
		if c, ok := keepGood(o, typ, servedGen); ok {
			// The result is kept, in our own words: a message someone
			// else wrote there is not carried on.
			return conditions.Verdict{Rule: &rules[kept], Status: c.Status, Reason: c.Reason,
				Message: probeMessage(typ, c.Reason), Generation: c.ObservedGeneration}, nil
		}
		return rules[pend].Verdict(0, "", gen), nil
	}
	out := conditions.Verdict{Rule: &rules[probe], Status: v.status, Reason: string(v.reason),
		Message: probeMessage(typ, string(v.reason)), Generation: gen}
	if v.cause == "" {
		return out, nil
	}
	return out, &Cause{Type: typ, Reason: string(v.reason), Detail: capCause(v.cause)}
}

// keepGood finds a condition of typ on the object that Pending must not
// replace: a reason of the vocabulary other than Pending, about the
// served generation, and made for this object (not carried over from an
// earlier object of the same name, whose transitions predate this one).
func keepGood(o *akv1.Binding, typ string, servedGen int64) (*metav1.Condition, bool) {
	for i := range o.Status.Conditions {
		c := &o.Status.Conditions[i]
		if c.Type != typ {
			continue
		}
		if c.Reason == string(ReasonPending) || c.ObservedGeneration != servedGen || c.LastTransitionTime.Before(&o.CreationTimestamp) {
			return nil, false
		}
		if _, ok := Vocabulary.Lookup(typ, c.Status, c.Reason); !ok {
			return nil, false
		}
		return c, true
	}
	return nil, false
}

// readyVerdict derives Ready from the verdicts before it, and names the
// condition it was derived from ("" when none).
func readyVerdict(s *Snapshot, o *akv1.Binding, prior []conditions.Verdict) (conditions.Verdict, string) {
	acc := prior[0]
	if acc.Status != sTrue {
		return conditions.Verdict{Rule: &rules[ruleReadyFromAccepted], Status: acc.Status, Reason: TypeAccepted + ":" + acc.Reason,
			Message: acc.Message, Generation: acc.Generation}, TypeAccepted
	}
	gen := acc.Generation
	probesPending := len(prior) < 3
	for _, c := range prior[1:] {
		gen = min(gen, c.Generation)
		if c.Reason == string(ReasonPending) {
			probesPending = true
		}
	}
	// Before the prober has listed the Binding, Ready is the bare Pending,
	// unless both probe conditions are already known good ones (kept
	// across a failover), from which Ready is derived as usual.
	if !s.Broker.ProberListed && probesPending {
		return rules[ruleReadyProberNotListed].Verdict(0, "", o.Generation), ""
	}
	for k, c := range prior[1:] {
		if c.Status != sTrue {
			typ := [...]string{TypeBackendReachable, TypeChannelJoined}[k]
			return conditions.Verdict{Rule: &rules[ruleReadyFromProbe], Status: c.Status, Reason: typ + ":" + c.Reason,
				Message: c.Message, Generation: gen}, typ
		}
	}
	return rules[ruleReadyOK].Verdict(0, "", gen), ""
}

// recordReady records what Ready's verdict v read: the condition it was
// derived from, the broker's word that its prober has not listed the
// Binding yet, or every condition before it.
func recordReady(rec *conditions.Recorder, self conditions.ObjectRef, prior []conditions.Verdict, v conditions.Verdict, from string) {
	rec.Read(TypeReady, self)
	switch {
	case from != "":
		rec.Read(TypeReady, self, conditions.F("status.conditions["+from+"]", v.Reason[len(from)+1:]))
	case v.Rule == &rules[ruleReadyProberNotListed]:
		rec.Read(TypeReady, conditions.ObjectRef{}, conditions.F("broker.proberListed", "false"))
	default:
		for k, x := range prior {
			typ := [...]string{TypeAccepted, TypeBackendReachable, TypeChannelJoined}[k]
			rec.Read(TypeReady, self, conditions.F("status.conditions["+typ+"]", string(x.Status)+" "+x.Reason))
		}
	}
	rec.Decided(TypeReady, from, v)
}

// provenance lines up what rec recorded with the conditions br carries.
// A lagging snapshot (the memory serves a newer generation) keeps every
// condition, by the stale-memory rule.
func provenance(rec *conditions.Recorder, b *bstate, o *akv1.Binding, self conditions.ObjectRef, br *Outcome) []conditions.Provenance {
	decided := rec.Provenance()
	for i := range decided {
		conditions.SortEvidence(&decided[i])
	}
	out := Vocabulary.Attach(br.Conditions, br.Skip == conditions.SkipStale, self, decided)
	if b.staleMemory {
		for i := range out {
			if Vocabulary.Has(out[i].Type) {
				out[i] = conditions.Provenance{Type: out[i].Type, Rule: rules[ruleStaleMemory].ID}
				out[i].Add(self, conditions.FInt("metadata.generation", o.Generation),
					conditions.FInt("memory.servedGeneration", b.old.Generation))
			}
		}
	}
	return out
}

func ref(kind string, m *metav1.ObjectMeta) conditions.ObjectRef {
	return conditions.ObjectRef{Kind: kind, Namespace: m.Namespace, Name: m.Name, UID: m.UID, Generation: m.Generation}
}
