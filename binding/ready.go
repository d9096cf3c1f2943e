package binding

import (
	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// readyPendingMessage is Ready's fixed message while the prober has not
// listed the Binding.
const readyPendingMessage = "the broker has just started and its prober has not listed this Binding yet"

// Ready's rules. Its False and Unknown reasons are derived: Ready carries
// "<Type>:<Reason>" of the first condition before it that is not True.
const (
	ruleReadyOK ruleIndex = probeEnd + iota
	ruleReadyProberNotListed
	ruleReadyFromAccepted
	ruleReadyFromProbe
	readyEnd
)

var readyRules = []conditions.Rule{
	ruleReadyOK: rule("binding/ready/ok", TypeReady, "Accepted and both probe conditions are True",
		write(sTrue, ReasonOK, "Every other condition is True: the agent answers in the channel.", "Nothing.")),
	ruleReadyProberNotListed: rule("binding/ready/prober-not-listed", TypeReady, "the prober has not listed the Binding since the broker started and a probe condition is pending",
		conditions.Reason{Status: sUnknown, Reason: string(ReasonPending), Message: readyPendingMessage, Meaning: "The broker started moments ago and its prober has not listed this Binding yet.", Action: "Wait about 15 seconds."}),
	ruleReadyFromAccepted: {ID: "binding/ready/from-accepted", Kind: akv1.KindBinding, Types: []string{TypeReady}, Sentence: "Accepted is not True, so Ready carries its status and Accepted:<reason>"},
	ruleReadyFromProbe:    {ID: "binding/ready/from-probe-condition", Kind: akv1.KindBinding, Types: []string{TypeReady}, Sentence: "the first probe condition that is not True gives Ready its status and <type>:<reason>"},
}

// deriveReady fills in what Ready's derived rules write: every pair of the
// other types that is not True, read from the rules that write them.
func deriveReady(t *[numRules]conditions.Rule) {
	for i := range ruleReadyOK {
		r := &t[i]
		into := &t[ruleReadyFromProbe]
		if r.Types[0] == TypeAccepted {
			into = &t[ruleReadyFromAccepted]
		}
		for _, w := range r.Writes {
			if w.Status == sTrue || containsPair(into.Writes, r.Types[0]+":"+w.Reason) {
				continue
			}
			into.Writes = append(into.Writes, conditions.Reason{Status: w.Status, Reason: r.Types[0] + ":" + w.Reason,
				Meaning: r.Types[0] + " holds the Binding back: " + w.Meaning, Action: w.Action})
		}
	}
}

func containsPair(ws []conditions.Reason, reason string) bool {
	for _, w := range ws {
		if w.Reason == reason {
			return true
		}
	}
	return false
}

// readyVerdict derives Ready from the verdicts before it, into *out, and
// names the condition it was derived from ("" when none).
func readyVerdict(out *conditions.Verdict, s *Snapshot, o *akv1.Binding, prior []conditions.Verdict) string {
	acc := &prior[0]
	if acc.Status != sTrue {
		*out = conditions.Verdict{Rule: &rules[ruleReadyFromAccepted], Status: acc.Status, Reason: TypeAccepted + ":" + acc.Reason,
			Message: acc.Message, Generation: acc.Generation}
		return TypeAccepted
	}
	gen := acc.Generation
	probesPending := len(prior) < 3
	for k := 1; k < len(prior); k++ {
		c := &prior[k]
		gen = min(gen, c.Generation)
		if c.Reason == string(ReasonPending) {
			probesPending = true
		}
	}
	// Before the prober has listed the Binding, Ready is the bare Pending,
	// unless both probe conditions are already known good ones (kept
	// across a failover), from which Ready is derived as usual.
	if !s.Broker.ProberListed && probesPending {
		*out = rules[ruleReadyProberNotListed].Verdict(0, "", o.Generation)
		return ""
	}
	for k := 1; k < len(prior); k++ {
		if c := &prior[k]; c.Status != sTrue {
			typ := [...]string{TypeBackendReachable, TypeChannelJoined}[k-1]
			*out = conditions.Verdict{Rule: &rules[ruleReadyFromProbe], Status: c.Status, Reason: typ + ":" + c.Reason,
				Message: c.Message, Generation: gen}
			return typ
		}
	}
	*out = rules[ruleReadyOK].Verdict(0, "", gen)
	return ""
}

// recordReady records what Ready's verdict v read: the condition it was
// derived from, the broker's word that its prober has not listed the
// Binding yet, or every condition before it.
func recordReady(rec *recording, self conditions.ObjectRef, prior []conditions.Verdict, v conditions.Verdict, from string) {
	rec.read(TypeReady, self)
	switch {
	case from != "":
		rec.read(TypeReady, self, fact("status.conditions["+from+"]", v.Reason[len(from)+1:]))
	case v.Rule == &rules[ruleReadyProberNotListed]:
		rec.read(TypeReady, conditions.ObjectRef{}, fact("broker.proberListed", "false"))
	default:
		for k, x := range prior {
			typ := [...]string{TypeAccepted, TypeBackendReachable, TypeChannelJoined}[k]
			rec.read(TypeReady, self, fact("status.conditions["+typ+"]", string(x.Status)+" "+x.Reason))
		}
	}
	rec.decided(TypeReady, from, v)
}
