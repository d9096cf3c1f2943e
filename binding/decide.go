package binding

import (
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/internal/wholesec"
)

// decide decides the Binding at position i: where it is served, its four
// (or two) conditions, and whether this broker writes them, written into
// *br (all of it: nothing of what br held stays). It returns what the
// memory keeps of the Binding (spec nil: nothing). owned is false for a
// Binding another broker answers for; it then gets no result and br is
// left as it was.
func (e *evaluator) decide(i int, br *Outcome) (served servedAt, owned bool) {
	s, probes := e.s, e.probes
	o := &s.Bindings[i]
	b := &e.st[i]

	// Where the Binding is served after this evaluation.
	var servedGen int64
	var servedSpec *akv1.BindingSpec
	switch {
	case b.passes && b.hasCur && b.curHolder == int32(i):
		servedGen, servedSpec = o.Generation, &o.Spec
	case b.hasOld && b.oldHolder == int32(i):
		servedGen, servedSpec = b.old.Generation, b.old.Binding
	}
	// The ChatConnection the Binding names now decides its owner; with
	// none to be found, every broker's leader answers for it.
	if b.conn != nil && connBroker(b.conn) != s.Broker.Name {
		probes.mark(s, i, o.UID, "the Binding belongs to another broker")
		return servedAt{}, false
	}

	var holder *akv1.Binding
	if b.hasCur {
		if h := b.curHolder; h >= 0 && int(h) != i && (b.passes || older(&s.Bindings[h], o)) {
			holder = &s.Bindings[h]
		}
	}
	rec := e.rec
	var self conditions.ObjectRef
	if rec.on() {
		self = ref(akv1.KindBinding, &o.ObjectMeta)
	}
	// The conditions as the API server stores them, at whole seconds
	// (wholeSeconds): the list itself when it has no fraction, as it
	// never has once written.
	conds := wholesec.Conditions(o.Status.Conditions)
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
	if rec.on() {
		recordAccepted(rec, self, b, o, holder, ar, servedSpec != nil && servedGen < o.Generation, servedGen)
	}
	n := 1

	if servedSpec != nil {
		be, ch := probes.pick(s, i, o.UID, o.Generation, servedGen)
		bv, bgen := pending, servedGen
		if be != nil {
			bv, bgen = classifyBackend(be.Backend), be.Generation
		}
		cv, cgen := pending, servedGen
		if ch != nil {
			cv, cgen = classifyChannel(ch.Channel), ch.Generation
		}
		bcause, bkept := probeVerdict(&vs[1], o, conds, TypeBackendReachable, servedGen, &bv, bgen)
		ccause, ckept := probeVerdict(&vs[2], o, conds, TypeChannelJoined, servedGen, &cv, cgen)
		if bcause != nil {
			causes = append(causes, *bcause)
		}
		if ccause != nil {
			causes = append(causes, *ccause)
		}
		if rec.on() {
			recordProbe(rec, self, b, o, TypeBackendReachable, servedGen, be, bv, vs[1], bkept)
			recordProbe(rec, self, b, o, TypeChannelJoined, servedGen, ch, cv, vs[2], ckept)
		}
		n = 3
	} else {
		probes.mark(s, i, o.UID, "the Binding is not served")
	}
	from := readyVerdict(&vs[n], s, o, vs[:n])
	if rec.on() {
		recordReady(rec, self, vs[:n], vs[n], from)
	}
	n++
	types := servedTypes[:]
	if n == 2 {
		types = unservedTypes[:]
	}
	m := Vocabulary.MergeVerdicts(o, conds, types, vs[:n], s.Now)
	m.Stale = m.Stale || b.staleMemory
	*br = Outcome{
		Outcome: conditions.Outcome{Kind: akv1.KindBinding, Namespace: o.Namespace, Name: o.Name, UID: o.UID,
			Generation: o.Generation, Conditions: m.Conditions},
		Served: servedSpec != nil, ServedGeneration: servedGen,
		Causes: causes,
	}
	br.Decide(m, false)
	if m.Stale {
		br.Conditions = conds
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
	switch {
	case b.staleMemory:
		// The snapshot lags the memory: keep the memory as it is.
		br.Errors = append(br.Errors, "the memory serves generation "+strconv.FormatInt(b.old.Generation, 10)+
			", above metadata.generation "+strconv.FormatInt(o.Generation, 10))
		served = servedAt{b.old.Generation, b.old.Binding}
	case servedSpec != nil:
		served = servedAt{servedGen, servedSpec}
	}
	return served, true
}

// The types of the conditions decide writes, in order: four for a
// Binding that is served, two for one that is not.
var (
	servedTypes   = [...]string{TypeAccepted, TypeBackendReachable, TypeChannelJoined, TypeReady}
	unservedTypes = [...]string{TypeAccepted, TypeReady}
)

func ref(kind string, m *metav1.ObjectMeta) conditions.ObjectRef {
	return conditions.ObjectRef{Kind: kind, Namespace: m.Namespace, Name: m.Name, UID: m.UID, Generation: m.Generation}
}
