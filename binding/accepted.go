package binding

import (
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/redact"
)

// acceptedOrder is the order in which Accepted lists its reasons'
// problems; the first reason present names the condition.
var acceptedOrder = [...]string{
	ReasonInvalidSpec,
	ReasonBackendNotFound,
	ReasonBackendRejected,
	ReasonConnectionNotFound,
	ReasonConnectionRejected,
	ReasonNamespaceNotAllowed,
	ReasonChannelConflict,
}

// finding is one problem of the Binding under one of Accepted's reasons.
type finding struct {
	reason string
	text   string
}

// acceptedVerdict folds the findings into Accepted's reason and message.
// The reason is that of the earliest finding in acceptedOrder, or
// Rejected when a finding's reason is outside it; the message lists every
// finding in that order, whatever order they were found in.
func acceptedVerdict(fs []finding) (reason, message string) {
	if len(fs) == 0 {
		return ReasonOK, ""
	}
	rank := func(r string) int {
		for i, o := range acceptedOrder {
			if o == r {
				return i
			}
		}
		return len(acceptedOrder)
	}
	var b strings.Builder
	best := len(acceptedOrder) + 1
	for pass := 0; pass <= len(acceptedOrder); pass++ {
		for _, f := range fs {
			if rank(f.reason) != pass {
				continue
			}
			if b.Len() > 0 {
				b.WriteString("; ")
			}
			b.WriteString(f.text)
			best = min(best, pass)
		}
	}
	if best >= len(acceptedOrder) {
		return ReasonRejected, b.String()
	}
	return acceptedOrder[best], b.String()
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
		fs = append(fs, finding{ReasonInvalidSpec, p})
	}
	if b.spec.backendOK {
		fs, causes = withObject(referenced{kind: akv1.KindAgentBackend, path: "spec.agent.backendRef", key: b.backendKey, denied: b.backendDenied,
			notFound: ReasonBackendNotFound, rejected: ReasonBackendRejected}, b.backend).check(o.Namespace, fs, causes)
	}
	if b.spec.connOK {
		fs, causes = withObject(referenced{kind: akv1.KindChatConnection, path: "spec.chat.connectionRef", key: b.connKey, denied: b.connDenied,
			notFound: ReasonConnectionNotFound, rejected: ReasonConnectionRejected}, b.conn).check(o.Namespace, fs, causes)
	}
	if conflictHolder != nil {
		ch := o.Spec.Chat.Channel
		if conflictHolder.Namespace == o.Namespace {
			fs = append(fs, finding{ReasonChannelConflict, "spec.chat.channel: channel " + ch +
				" is already bound by Binding " + conflictHolder.Namespace + "/" + redact.Message(conflictHolder.Name)})
		} else {
			fs = append(fs, finding{ReasonChannelConflict, "spec.chat.channel: channel " + ch +
				" is already bound by a Binding in another namespace"})
			causes = append(causes, Cause{TypeAccepted, ReasonChannelConflict, capCause("channel " + ch +
				" on ChatConnection " + b.connKey.ns + "/" + b.connKey.name + " is held by Binding " +
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
	running            bool   // a good generation of the object runs
	notFound, rejected string // the reasons for this reference
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
		fs = append(fs, finding{ReasonNamespaceNotAllowed, r.kind + " " + name + " does not allow namespace " + ns})
	case r.problems != nil:
		same := r.key.ns == ns
		fs = append(fs, finding{r.rejected, rejectedPhrase(r.kind, r.key, r.gen, r.runningGen, r.running, r.problems, same)})
		if !same {
			causes = append(causes, Cause{TypeAccepted, r.rejected, capCause(r.kind + " " + name + ": " + strings.Join(r.problems, ", "))})
		}
	}
	return fs, causes
}

// capCause bounds a log detail, cutting on a rune boundary.
func capCause(s string) string { return redact.Clip(s, MaxCauseBytes) }
