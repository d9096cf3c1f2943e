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
	s, ix, holders, probes := e.s, e.ix, e.holders, e.probes
	o := &s.Bindings[i]
	b := &e.st[i]

	// Where the Binding is served after this evaluation.
	var servedGen int64
	var servedSpec *akv1.BindingSpec
	switch {
	case b.passes && b.hasCur && holders[b.curKey] == i:
		servedGen, servedSpec = o.Generation, &o.Spec
	case b.hasOld && holders[b.oldKey] == i:
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
		if h, ok := holders[b.curKey]; ok && h != i && (b.passes || older(&s.Bindings[h], o)) {
			holder = &s.Bindings[h]
		}
	}
	fs, causes := collectFindings(o, b, holder)
	reason, msg := acceptedVerdict(fs)
	if servedSpec != nil && servedGen < o.Generation && reason != ReasonOK {
		msg = servingPrefix(o.Generation, servedGen) + msg
	}
	var desired [4]metav1.Condition
	acc := metav1.Condition{Type: TypeAccepted, Status: sTrue, Reason: reason, ObservedGeneration: o.Generation}
	if reason != ReasonOK {
		acc.Status = sFalse
		// The message is the Binding's own text with the parts from
		// elsewhere already redacted one by one (collectFindings): only
		// the line and length rule applies to the whole (§11.3).
		acc.Message = conditions.FitMessage(msg)
	}
	desired[0] = acc
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
		bc, bcause := probeCondition(o, TypeBackendReachable, servedGen, bv, bgen)
		cc, ccause := probeCondition(o, TypeChannelJoined, servedGen, cv, cgen)
		if bcause != nil {
			causes = append(causes, *bcause)
		}
		if ccause != nil {
			causes = append(causes, *ccause)
		}
		desired[1], desired[2] = bc, cc
		n = 3
	} else {
		probes.mark(s, o.UID, "the Binding is not served")
	}
	desired[n] = readyCondition(s, o, desired[:n])
	n++

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
	if ix.explain {
		br.Provenance = explainBinding(s, b, o, holder, probes, desired[:n], &br)
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

// probeCondition builds BackendReachable or ChannelJoined from the chosen
// result. With none it is Pending at the served generation, unless the
// object already carries a good condition of that generation: a fresh
// leader must not write Pending over what the last one found.
func probeCondition(o *akv1.Binding, typ string, servedGen int64, v verdict, gen int64) (metav1.Condition, *Cause) {
	if v.reason == ReasonPending {
		if kept, ok := keepGood(o, typ, servedGen); ok {
			return kept, nil
		}
	}
	c := metav1.Condition{Type: typ, Status: v.status, Reason: v.reason, Message: probeMessage(typ, v.reason), ObservedGeneration: gen}
	if v.cause == "" {
		return c, nil
	}
	return c, &Cause{Type: typ, Reason: v.reason, Detail: capCause(v.cause)}
}

// keepGood finds a condition of typ on the object that Pending must not
// replace: a reason of the vocabulary other than Pending, about the
// served generation, and made for this object (not carried over from an
// earlier object of the same name, whose transitions predate this one).
func keepGood(o *akv1.Binding, typ string, servedGen int64) (metav1.Condition, bool) {
	for _, c := range o.Status.Conditions {
		if c.Type != typ {
			continue
		}
		if c.Reason == ReasonPending || c.ObservedGeneration != servedGen || c.LastTransitionTime.Before(&o.CreationTimestamp) {
			return metav1.Condition{}, false
		}
		if _, ok := Vocabulary.Lookup(typ, c.Status, c.Reason); !ok {
			return metav1.Condition{}, false
		}
		// The result is kept, in our own words: a message someone else
		// wrote there is not carried on.
		c.Message = probeMessage(typ, c.Reason)
		return c, true
	}
	return metav1.Condition{}, false
}

// readyCondition derives Ready from the conditions before it.
func readyCondition(s *Snapshot, o *akv1.Binding, prior []metav1.Condition) metav1.Condition {
	acc := prior[0]
	if acc.Status != sTrue {
		return metav1.Condition{Type: TypeReady, Status: acc.Status, Reason: TypeAccepted + ":" + acc.Reason,
			Message: acc.Message, ObservedGeneration: acc.ObservedGeneration}
	}
	gen := acc.ObservedGeneration
	probesPending := len(prior) < 3
	for _, c := range prior[1:] {
		gen = min(gen, c.ObservedGeneration)
		if c.Reason == ReasonPending {
			probesPending = true
		}
	}
	// Before the prober has listed the Binding, Ready is the bare Pending,
	// unless both probe conditions are already known good ones (kept
	// across a failover), from which Ready is derived as usual.
	if !s.Broker.ProberListed && probesPending {
		return metav1.Condition{Type: TypeReady, Status: sUnknown, Reason: ReasonPending,
			Message: readyPendingMessage, ObservedGeneration: o.Generation}
	}
	for _, c := range prior[1:] {
		if c.Status != sTrue {
			return metav1.Condition{Type: TypeReady, Status: c.Status, Reason: c.Type + ":" + c.Reason,
				Message: c.Message, ObservedGeneration: gen}
		}
	}
	return metav1.Condition{Type: TypeReady, Status: sTrue, Reason: ReasonOK, ObservedGeneration: gen}
}

const readyPendingMessage = "the broker has just started and its prober has not listed this Binding yet"
