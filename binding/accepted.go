package binding

import (
	"strconv"
	"strings"
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
		b.WriteString(": ")
		b.WriteString(strings.Join(probs, ", "))
	}
	return b.String()
}

// collectFindings lists the Binding's problems under Accepted's reasons
// and the causes that only the log may see.
func collectFindings(o *Binding, b *bstate, conflictHolder *Binding) ([]finding, []Cause) {
	var fs []finding
	var causes []Cause
	for _, p := range b.spec.problems {
		fs = append(fs, finding{ReasonInvalidSpec, p})
	}
	if b.spec.backendOK {
		switch {
		case b.backend == nil:
			fs = append(fs, finding{ReasonBackendNotFound,
				"spec.agent.backendRef: AgentBackend " + b.backendKey.ns + "/" + b.backendKey.name + " not found"})
		case b.backendDenied:
			fs = append(fs, finding{ReasonNamespaceNotAllowed,
				"AgentBackend " + b.backendKey.ns + "/" + b.backendKey.name + " does not allow namespace " + o.Namespace})
		case b.backend.problems != nil:
			same := b.backendKey.ns == o.Namespace
			fs = append(fs, finding{ReasonBackendRejected, rejectedPhrase(KindAgentBackend, b.backendKey,
				b.backend.obj.Generation, b.backend.runningGen, b.backend.running != nil, b.backend.problems, same)})
			if !same {
				causes = append(causes, Cause{TypeAccepted, ReasonBackendRejected, capCause("AgentBackend " +
					b.backendKey.ns + "/" + b.backendKey.name + ": " + strings.Join(b.backend.problems, ", "))})
			}
		}
	}
	if b.spec.connOK {
		switch {
		case b.conn == nil:
			fs = append(fs, finding{ReasonConnectionNotFound,
				"spec.chat.connectionRef: ChatConnection " + b.connKey.ns + "/" + b.connKey.name + " not found"})
		case b.connDenied:
			fs = append(fs, finding{ReasonNamespaceNotAllowed,
				"ChatConnection " + b.connKey.ns + "/" + b.connKey.name + " does not allow namespace " + o.Namespace})
		case b.conn.problems != nil:
			same := b.connKey.ns == o.Namespace
			fs = append(fs, finding{ReasonConnectionRejected, rejectedPhrase(KindChatConnection, b.connKey,
				b.conn.obj.Generation, b.conn.runningGen, b.conn.running != nil, b.conn.problems, same)})
			if !same {
				causes = append(causes, Cause{TypeAccepted, ReasonConnectionRejected, capCause("ChatConnection " +
					b.connKey.ns + "/" + b.connKey.name + ": " + strings.Join(b.conn.problems, ", "))})
			}
		}
	}
	if conflictHolder != nil {
		ch := o.Spec.Chat.Channel
		if conflictHolder.Namespace == o.Namespace {
			fs = append(fs, finding{ReasonChannelConflict, "spec.chat.channel: channel " + ch +
				" is already bound by Binding " + conflictHolder.Namespace + "/" + conflictHolder.Name})
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

// capCause bounds a log detail, cutting on a rune boundary.
func capCause(s string) string {
	if len(s) <= MaxCauseBytes {
		return s
	}
	cut := MaxCauseBytes - len("…")
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
