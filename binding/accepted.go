package binding

import (
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/redact"
)

// Accepted's False reasons, in the order of their rules.
const (
	// ReasonInvalidSpec goes with Accepted, False.
	ReasonInvalidSpec Reason = "InvalidSpec"
	// ReasonBackendNotFound goes with Accepted, False.
	ReasonBackendNotFound Reason = "BackendNotFound"
	// ReasonBackendRejected goes with Accepted, False.
	ReasonBackendRejected Reason = "BackendRejected"
	// ReasonConnectionNotFound goes with Accepted, False.
	ReasonConnectionNotFound Reason = "ConnectionNotFound"
	// ReasonConnectionRejected goes with Accepted, False.
	ReasonConnectionRejected Reason = "ConnectionRejected"
	// ReasonNamespaceNotAllowed goes with Accepted, False.
	ReasonNamespaceNotAllowed Reason = "NamespaceNotAllowed"
	// ReasonChannelConflict goes with Accepted, False.
	ReasonChannelConflict Reason = "ChannelConflict"
	// ReasonRejected goes with Accepted, False: a refusal outside the
	// named reasons.
	ReasonRejected Reason = "Rejected"
)

// Accepted's rules. The False rules stand in the order their problems are
// listed: the first present names the condition, and a finding of no
// named reason (ruleAcceptedRejected) is listed last.
const (
	ruleAcceptedOK ruleIndex = iota
	ruleInvalidSpec
	ruleBackendNotFound
	ruleBackendRejected
	ruleConnectionNotFound
	ruleConnectionRejected
	ruleNamespaceNotAllowed
	ruleChannelConflict
	ruleAcceptedRejected
	acceptedEnd
)

var acceptedRules = []conditions.Rule{
	ruleAcceptedOK: rule("binding/accepted/ok", TypeAccepted, "every check passes and the Binding holds its channel",
		write(sTrue, ReasonOK, "The broker took the Binding as written.", "Nothing.")),
	ruleInvalidSpec: rule("binding/accepted/invalid-spec", TypeAccepted, "a field of the Binding's current generation breaks one of the broker's checks",
		write(sFalse, ReasonInvalidSpec, "A field of the Binding breaks one of the broker's checks.", "Fix each field the message names.")),
	ruleBackendNotFound: rule("binding/accepted/backend-not-found", TypeAccepted, "spec.agent.backendRef names no AgentBackend in the snapshot",
		write(sFalse, ReasonBackendNotFound, "No AgentBackend has the name spec.agent.backendRef gives.", "Create that AgentBackend or correct the reference.")),
	ruleBackendRejected: rule("binding/accepted/backend-rejected", TypeAccepted, "the referenced AgentBackend's current generation fails its checks",
		write(sFalse, ReasonBackendRejected, "The referenced AgentBackend fails the broker's checks; a good earlier generation of it may still run.", "Ask the AgentBackend's owner to fix it.")),
	ruleConnectionNotFound: rule("binding/accepted/connection-not-found", TypeAccepted, "spec.chat.connectionRef names no ChatConnection in the snapshot",
		write(sFalse, ReasonConnectionNotFound, "No ChatConnection has the name spec.chat.connectionRef gives.", "Create that ChatConnection or correct the reference.")),
	ruleConnectionRejected: rule("binding/accepted/connection-rejected", TypeAccepted, "the referenced ChatConnection's current generation fails its checks",
		write(sFalse, ReasonConnectionRejected, "The referenced ChatConnection fails the broker's checks; a good earlier generation of it may still run.", "Ask the ChatConnection's owner to fix it.")),
	ruleNamespaceNotAllowed: rule("binding/accepted/namespace-not-allowed", TypeAccepted, "a referenced object in another namespace does not list the Binding's namespace in allowedNamespaces",
		write(sFalse, ReasonNamespaceNotAllowed, "A referenced object lives in another namespace that does not let this one use it.", "Ask its owner to add this namespace to allowedNamespaces, or use an object of your own.")),
	ruleChannelConflict: rule("binding/accepted/channel-conflict", TypeAccepted, "an older Binding (by creationTimestamp, then namespace, name and UID) holds the same channel on the same ChatConnection",
		write(sFalse, ReasonChannelConflict, "An older Binding on the same ChatConnection already holds the channel.", "Pick another channel or remove the other Binding.")),
	ruleAcceptedRejected: rule("binding/accepted/rejected", TypeAccepted, "a finding outside the named reasons refuses the Binding",
		write(sFalse, ReasonRejected, "The broker refused the Binding for a reason this version does not name.", "Read the message and the broker's log.")),
}

// finding is one problem of the Binding under one of Accepted's rules.
type finding struct {
	rule ruleIndex
	text string
}

// acceptedVerdict folds the findings into the rule that names Accepted
// and its message. The rule is the earliest of the findings' in the rule
// table; the message lists every finding in that order, whatever order
// they were found in. With no finding it is ruleAcceptedOK.
func acceptedVerdict(fs []finding) (ruleIndex, string) {
	if len(fs) == 0 {
		return ruleAcceptedOK, ""
	}
	var b strings.Builder
	best := ruleAcceptedRejected
	for r := ruleInvalidSpec; r <= ruleAcceptedRejected; r++ {
		for _, f := range fs {
			if f.rule != r {
				continue
			}
			if b.Len() > 0 {
				b.WriteString("; ")
			}
			b.WriteString(f.text)
			best = min(best, r)
		}
	}
	return best, b.String()
}

// servingPrefix opens Accepted's message when the broker runs an older
// generation of the Binding than the one it refused.
func servingPrefix(refused, served int64) string {
	return "generation " + strconv.FormatInt(refused, 10) + " is invalid, serving generation " + strconv.FormatInt(served, 10) + ": "
}

// rejectedPhrase describes a referenced object that fails its checks. Its
// problems are quoted only when it shares the Binding's namespace; across
// namespaces the reader may not own it.
func rejectedPhrase(kind string, key objKey, gen int64, runningGen int64, running bool, probs problems, sameNS bool) string {
	var b strings.Builder
	b.WriteString(kind)
	b.WriteByte(' ')
	b.WriteString(key.ns)
	b.WriteByte('/')
	b.WriteString(key.name)
	if running {
		b.WriteString(" generation ")
		b.WriteString(strconv.FormatInt(gen, 10))
		b.WriteString(" is invalid, serving generation ")
		b.WriteString(strconv.FormatInt(runningGen, 10))
	} else {
		b.WriteString(" is invalid")
	}
	if sameNS {
		// The object's problems quote its own values: text from
		// elsewhere, so they are redacted, apart from the Binding's own.
		b.WriteString(": ")
		b.WriteString(redact.Message(strings.Join(probs, ", ")))
	}
	return b.String()
}

// collectFindings lists the Binding's problems under Accepted's reasons
// and the causes that only the log may see.
func collectFindings(o *akv1.Binding, b *bstate, conflictHolder *akv1.Binding) ([]finding, []Cause) {
	var fs []finding
	var causes []Cause
	for _, p := range b.spec.problems {
		fs = append(fs, finding{ruleInvalidSpec, p})
	}
	// A reference that finds an object it may use, of a valid current
	// generation, says nothing (referenced.check): the common case skips
	// building what check would read.
	if b.spec.backendOK && (b.backend == nil || b.backendDenied || b.backend.problems != nil) {
		fs, causes = withObject(referenced{kind: akv1.KindAgentBackend, path: "spec.agent.backendRef", key: backendKey(o), denied: b.backendDenied,
			notFound: ruleBackendNotFound, rejected: ruleBackendRejected}, b.backend).check(o.Namespace, fs, causes)
	}
	if b.spec.connOK && (b.conn == nil || b.connDenied || b.conn.problems != nil) {
		fs, causes = withObject(referenced{kind: akv1.KindChatConnection, path: "spec.chat.connectionRef", key: connKey(o), denied: b.connDenied,
			notFound: ruleConnectionNotFound, rejected: ruleConnectionRejected}, b.conn).check(o.Namespace, fs, causes)
	}
	if conflictHolder != nil {
		ch := o.Spec.Chat.Channel
		if conflictHolder.Namespace == o.Namespace {
			fs = append(fs, finding{ruleChannelConflict, "spec.chat.channel: channel " + ch +
				" is already bound by Binding " + redact.Name(conflictHolder.Namespace+"/"+conflictHolder.Name)})
		} else {
			ck := connKey(o)
			fs = append(fs, finding{ruleChannelConflict, "spec.chat.channel: channel " + ch +
				" is already bound by a Binding in another namespace"})
			causes = append(causes, Cause{TypeAccepted, string(ReasonChannelConflict), capCause("channel " + ch +
				" on ChatConnection " + ck.ns + "/" + ck.name + " is held by Binding " +
				conflictHolder.Namespace + "/" + conflictHolder.Name)})
		}
	}
	return fs, causes
}

// referenced is what Accepted needs to know of the AgentBackend or the
// ChatConnection a Binding names; both are judged by the same steps.
type referenced struct {
	kind, path         string // the object's kind; the Binding's field naming it
	key                objKey
	found, denied      bool
	problems           problems // of the object's current generation
	gen, runningGen    int64
	running            bool      // a good generation of the object runs
	notFound, rejected ruleIndex // the rules for this reference
}

// withObject fills in what ref needs of the object found under its key, x;
// nil when there is none.
func withObject[O, S any, P interface {
	*O
	metav1.Object
}](ref referenced, x *refInfo[O, S]) referenced {
	if x != nil {
		ref.found, ref.problems, ref.gen, ref.runningGen, ref.running = true, x.problems, P(x.obj).GetGeneration(), x.runningGen, x.running != nil
	}
	return ref
}

// check adds the reference's finding, if any, and the log's cause when
// the finding must not quote another namespace's object. A disallowed
// object is NamespaceNotAllowed whatever its validity, so nothing about
// it shows.
func (r referenced) check(ns string, fs []finding, causes []Cause) ([]finding, []Cause) {
	name := r.key.ns + "/" + r.key.name
	switch {
	case !r.found:
		fs = append(fs, finding{r.notFound, r.path + ": " + r.kind + " " + name + " not found"})
	case r.denied:
		fs = append(fs, finding{ruleNamespaceNotAllowed, r.kind + " " + name + " does not allow namespace " + ns})
	case r.problems != nil:
		same := r.key.ns == ns
		fs = append(fs, finding{r.rejected, rejectedPhrase(r.kind, r.key, r.gen, r.runningGen, r.running, r.problems, same)})
		if !same {
			causes = append(causes, Cause{TypeAccepted, rules[r.rejected].Writes[0].Reason, capCause(r.kind + " " + name + ": " + strings.Join(r.problems, ", "))})
		}
	}
	return fs, causes
}

// capCause bounds a log detail, cutting on a rune boundary.
func capCause(s string) string { return redact.Clip(s, MaxCauseBytes) }

// recordAccepted records what Accepted's verdict read: the spec's
// problems, the references, the holder of the channel, and the served
// generation when a refused edit leaves an older one running.
func recordAccepted(rec *recording, self conditions.ObjectRef, b *bstate, o *akv1.Binding, holder *akv1.Binding, r ruleIndex, servingOlder bool, servedGen int64) {
	rec.read(TypeAccepted, self)
	defer rec.decided(TypeAccepted, "", conditions.Verdict{Rule: &rules[r]})
	for _, prob := range b.spec.problems {
		rec.read(TypeAccepted, self, fact("problem", prob))
	}
	if b.spec.backendOK {
		recordRef(rec, self, akv1.KindAgentBackend, "spec.agent.backendRef", backendKey(o), b.backendDenied, b.backend)
	}
	if b.spec.connOK {
		recordRef(rec, self, akv1.KindChatConnection, "spec.chat.connectionRef", connKey(o), b.connDenied, b.conn)
	}
	if holder != nil {
		ck := connKey(o)
		rec.read(TypeAccepted, self, fact("spec.chat.channel", o.Spec.Chat.Channel),
			timeFact("metadata.creationTimestamp", o.CreationTimestamp.Time))
		rec.read(TypeAccepted, ref(akv1.KindBinding, &holder.ObjectMeta), fact("holds", "channel "+o.Spec.Chat.Channel+" on ChatConnection "+ck.ns+"/"+ck.name),
			timeFact("metadata.creationTimestamp", holder.CreationTimestamp.Time))
	}
	if r == ruleAcceptedOK {
		rec.read(TypeAccepted, self, fact("spec.chat.channel", o.Spec.Chat.Channel))
	} else if servingOlder {
		// A refused edit: the broker goes on serving the last good one.
		rec.read(TypeAccepted, self, intFact("memory.servedGeneration", servedGen))
	}
}

// recordRef records what Accepted read of a referenced AgentBackend or
// ChatConnection, x (nil when not found).
func recordRef[O, S any, P interface {
	*O
	metav1.Object
}](rec *recording, self conditions.ObjectRef, kind, path string, key objKey, denied bool, x *refInfo[O, S]) {
	if x == nil {
		rec.read(TypeAccepted, self, fact(path, key.ns+"/"+key.name+" (not found)"))
		return
	}
	rec.read(TypeAccepted, self, fact(path, key.ns+"/"+key.name))
	facts := []conditions.Fact{}
	if denied {
		facts = append(facts, fact("spec.allowedNamespaces", "["+strings.Join(x.allowed, ", ")+"]"))
	}
	for _, prob := range x.problems {
		facts = append(facts, fact("problem", prob))
	}
	if x.problems != nil && x.runningGen > 0 {
		facts = append(facts, intFact("memory.servedGeneration", x.runningGen))
	}
	m := P(x.obj)
	rec.read(TypeAccepted, conditions.ObjectRef{Kind: kind, Namespace: m.GetNamespace(), Name: m.GetName(), UID: m.GetUID(), Generation: m.GetGeneration()}, facts...)
}
