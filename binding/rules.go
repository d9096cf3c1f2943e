package binding

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// This file is the one place a Binding's decision rules are declared:
// each rule once, with the reasons it writes and their text. The
// vocabulary, the rule table (Rules, docs/rules.md, condengine explain
// -rules, condengine vocab) and the order of Accepted's reasons are read
// from it. Adding a reason is a constant and a rule here, the code that
// returns its verdict, and `go generate ./cmd/condengine` for the docs.

// Condition types of a Binding, in the order they are written.
const (
	TypeAccepted         = "Accepted"
	TypeBackendReachable = "BackendReachable"
	TypeChannelJoined    = "ChannelJoined"
	TypeReady            = conditions.TypeReady
)

// Reason is the reason of a Binding's condition. Ready's False and
// Unknown reasons are not constants: they are "<Type>:<Reason>" of the
// condition that holds the Binding back.
type Reason string

// Reasons of a Binding's conditions, each with the conditions it goes
// with.
const (
	// ReasonOK goes with every type, True.
	ReasonOK Reason = "OK"
	// ReasonPending goes with BackendReachable, ChannelJoined and Ready,
	// Unknown: nothing has been found yet.
	ReasonPending Reason = "Pending"
	// ReasonAccessDenied goes with BackendReachable and ChannelJoined,
	// False.
	ReasonAccessDenied Reason = "AccessDenied"
	// ReasonRateLimited goes with BackendReachable and ChannelJoined,
	// Unknown.
	ReasonRateLimited Reason = "RateLimited"
	// ReasonProbeTimeout goes with BackendReachable and ChannelJoined,
	// Unknown.
	ReasonProbeTimeout Reason = "ProbeTimeout"
	// ReasonProbeFailed goes with BackendReachable and ChannelJoined,
	// Unknown.
	ReasonProbeFailed Reason = "ProbeFailed"

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

	// ReasonInvalidAgentCard goes with BackendReachable, False.
	ReasonInvalidAgentCard Reason = "InvalidAgentCard"
	// ReasonAgentNotFound goes with BackendReachable, False.
	ReasonAgentNotFound Reason = "AgentNotFound"
	// ReasonBackendError goes with BackendReachable, False.
	ReasonBackendError Reason = "BackendError"
	// ReasonUnreachable goes with BackendReachable, False.
	ReasonUnreachable Reason = "Unreachable"

	// ReasonChannelArchived goes with ChannelJoined, False.
	ReasonChannelArchived Reason = "ChannelArchived"
	// ReasonNotInChannel goes with ChannelJoined, False.
	ReasonNotInChannel Reason = "NotInChannel"
	// ReasonChannelNotFound goes with ChannelJoined, False.
	ReasonChannelNotFound Reason = "ChannelNotFound"
	// ReasonPlatformTimeout goes with ChannelJoined, Unknown.
	ReasonPlatformTimeout Reason = "PlatformTimeout"
	// ReasonPlatformError goes with ChannelJoined, Unknown.
	ReasonPlatformError Reason = "PlatformError"
)

const (
	sTrue    = metav1.ConditionTrue
	sFalse   = metav1.ConditionFalse
	sUnknown = metav1.ConditionUnknown
)

// logHasCause ends a probe message whose cause only the operator's log
// may show: whoever reads the Binding may not own the agent or the
// connection, so the message names nothing the prober touched.
const logHasCause = "the operator's log has the cause"

// ruleIndex names a rule by its position in rules.
type ruleIndex uint8

// The Binding's rules. Accepted's False rules stand in the order their
// problems are listed: the first present names the condition.
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
	ruleBackendPending
	ruleBackendProbe
	ruleBackendKept
	ruleChannelPending
	ruleChannelProbe
	ruleChannelKept
	ruleReadyOK
	ruleReadyProberNotListed
	ruleReadyFromAccepted
	ruleReadyFromProbe
	ruleStaleMemory
	numRules
)

// write is one (status, reason) a rule writes, with its text.
func write(st metav1.ConditionStatus, r Reason, meaning, action string) conditions.Reason {
	return conditions.Reason{Status: st, Reason: string(r), Meaning: meaning, Action: action}
}

// probeWrite is a probe condition's write, whose message is fixed.
func probeWrite(st metav1.ConditionStatus, r Reason, message, meaning, action string) conditions.Reason {
	return conditions.Reason{Status: st, Reason: string(r), Message: message, Meaning: meaning, Action: action}
}

// backendResults and channelResults are what a finished probe may say;
// the probe-result and kept-across-failover rules both write them.
var (
	backendResults = []conditions.Reason{
		write(sTrue, ReasonOK, "The last card fetch worked and the card is usable.", "Nothing."),
		probeWrite(sFalse, ReasonInvalidAgentCard, "the agent card is too large, not JSON, or lacks a field the broker needs; "+logHasCause, "The card was too large, not JSON, or lacked what the broker needs.", "Fix the card the agent serves."),
		probeWrite(sFalse, ReasonAgentNotFound, "the agent has no card at the configured path; "+logHasCause, "The agent answered that no card lives at the configured path.", "Check the AgentBackend's url and cardPath."),
		probeWrite(sFalse, ReasonAccessDenied, "the agent refused the card fetch; "+logHasCause, "The agent refused the card fetch.", "Check the credential the AgentBackend sends."),
		probeWrite(sUnknown, ReasonRateLimited, "the agent asked the prober to slow down, so the fetch could not tell; "+logHasCause, "The agent asked the prober to slow down, so the fetch told nothing.", "Wait; the next pass tries again."),
		probeWrite(sFalse, ReasonBackendError, "the agent answered the card fetch with an unexpected status; "+logHasCause, "The agent answered the card fetch with an unexpected status.", "Look at the agent's health and logs."),
		probeWrite(sFalse, ReasonUnreachable, "nothing answered the card fetch; "+logHasCause, "Nothing answered the card fetch.", "Check the agent runs and its address resolves and accepts TLS."),
		probeWrite(sUnknown, ReasonProbeTimeout, "the card fetch ran past the prober's time limit; "+logHasCause, "The fetch was still running when the prober's time limit hit.", "Look at the agent's latency; the next pass tries again."),
		probeWrite(sUnknown, ReasonProbeFailed, "the prober could not fetch the agent card; "+logHasCause, "The prober could not make the fetch, for example a Secret was missing.", "Read the broker's log for the cause."),
	}
	channelResults = []conditions.Reason{
		write(sTrue, ReasonOK, "The bot is in the channel, which exists and is open.", "Nothing."),
		probeWrite(sFalse, ReasonChannelArchived, "the channel is archived; "+logHasCause, "The channel is archived.", "Unarchive it or bind another channel."),
		probeWrite(sFalse, ReasonNotInChannel, "the bot is not a member of the channel; "+logHasCause, "The bot is not a member of the channel.", "Invite the bot into the channel."),
		probeWrite(sFalse, ReasonChannelNotFound, "the chat platform cannot find the channel for the bot; "+logHasCause, "The platform knows no such channel, or the bot cannot see it.", "Check the channel ID, or invite the bot if it is private."),
		probeWrite(sFalse, ReasonAccessDenied, "the chat platform refused the bot's credentials; "+logHasCause, "The platform refused the bot's token or its scopes.", "Check the token the ChatConnection names and its scopes."),
		probeWrite(sUnknown, ReasonRateLimited, "the chat platform asked the prober to slow down, so the look could not tell; "+logHasCause, "The platform asked the prober to slow down, so the look told nothing.", "Wait; the next pass tries again."),
		probeWrite(sUnknown, ReasonPlatformTimeout, "the chat platform gave up on the request; "+logHasCause, "The platform gave up on the request within its own deadline.", "Wait; the next pass tries again."),
		probeWrite(sUnknown, ReasonPlatformError, "the chat platform did not give a usable answer; "+logHasCause, "The platform did not answer, or answered with an error the broker does not classify.", "Read the broker's log; check the platform's status page."),
		probeWrite(sUnknown, ReasonProbeTimeout, "the look at the channel ran past the prober's time limit; "+logHasCause, "The look was still running when the prober's time limit hit.", "Wait; the next pass tries again."),
		probeWrite(sUnknown, ReasonProbeFailed, "the prober could not look at the channel; "+logHasCause, "The prober could not make the call, for example the token Secret was missing.", "Read the broker's log for the cause."),
	}
)

const readyPendingMessage = "the broker has just started and its prober has not listed this Binding yet"

// rules is the Binding's rule table, in the order the docs list it.
var rules = func() [numRules]conditions.Rule {
	k := akv1.KindBinding
	one := func(id, typ, sentence string, w conditions.Reason) conditions.Rule {
		return conditions.Rule{ID: id, Kind: k, Types: []string{typ}, Sentence: sentence, Writes: []conditions.Reason{w}}
	}
	many := func(id, typ, sentence string, ws []conditions.Reason) conditions.Rule {
		return conditions.Rule{ID: id, Kind: k, Types: []string{typ}, Sentence: sentence, Writes: ws}
	}
	t := [numRules]conditions.Rule{
		ruleAcceptedOK: one("binding/accepted/ok", TypeAccepted, "every check passes and the Binding holds its channel",
			write(sTrue, ReasonOK, "The broker took the Binding as written.", "Nothing.")),
		ruleInvalidSpec: one("binding/accepted/invalid-spec", TypeAccepted, "a field of the Binding's current generation breaks one of the broker's checks",
			write(sFalse, ReasonInvalidSpec, "A field of the Binding breaks one of the broker's checks.", "Fix each field the message names.")),
		ruleBackendNotFound: one("binding/accepted/backend-not-found", TypeAccepted, "spec.agent.backendRef names no AgentBackend in the snapshot",
			write(sFalse, ReasonBackendNotFound, "No AgentBackend has the name spec.agent.backendRef gives.", "Create that AgentBackend or correct the reference.")),
		ruleBackendRejected: one("binding/accepted/backend-rejected", TypeAccepted, "the referenced AgentBackend's current generation fails its checks",
			write(sFalse, ReasonBackendRejected, "The referenced AgentBackend fails the broker's checks; a good earlier generation of it may still run.", "Ask the AgentBackend's owner to fix it.")),
		ruleConnectionNotFound: one("binding/accepted/connection-not-found", TypeAccepted, "spec.chat.connectionRef names no ChatConnection in the snapshot",
			write(sFalse, ReasonConnectionNotFound, "No ChatConnection has the name spec.chat.connectionRef gives.", "Create that ChatConnection or correct the reference.")),
		ruleConnectionRejected: one("binding/accepted/connection-rejected", TypeAccepted, "the referenced ChatConnection's current generation fails its checks",
			write(sFalse, ReasonConnectionRejected, "The referenced ChatConnection fails the broker's checks; a good earlier generation of it may still run.", "Ask the ChatConnection's owner to fix it.")),
		ruleNamespaceNotAllowed: one("binding/accepted/namespace-not-allowed", TypeAccepted, "a referenced object in another namespace does not list the Binding's namespace in allowedNamespaces",
			write(sFalse, ReasonNamespaceNotAllowed, "A referenced object lives in another namespace that does not let this one use it.", "Ask its owner to add this namespace to allowedNamespaces, or use an object of your own.")),
		ruleChannelConflict: one("binding/accepted/channel-conflict", TypeAccepted, "an older Binding (by creationTimestamp, then namespace, name and UID) holds the same channel on the same ChatConnection",
			write(sFalse, ReasonChannelConflict, "An older Binding on the same ChatConnection already holds the channel.", "Pick another channel or remove the other Binding.")),
		ruleAcceptedRejected: one("binding/accepted/rejected", TypeAccepted, "a finding outside the named reasons refuses the Binding",
			write(sFalse, ReasonRejected, "The broker refused the Binding for a reason this version does not name.", "Read the message and the broker's log.")),

		ruleBackendPending: one("binding/backend-reachable/pending", TypeBackendReachable, "no card fetch has finished for the served generation and no good condition of it is on the object",
			probeWrite(sUnknown, ReasonPending, "no fetch of the agent card has finished yet", "No card fetch has finished yet for this Binding.", "Wait for the next probe pass.")),
		ruleBackendProbe: many("binding/backend-reachable/probe-result", TypeBackendReachable, "the newest card fetch of a generation not above the served one decides, by HTTP status, error, timeout and card", backendResults),
		ruleBackendKept:  many("binding/backend-reachable/kept-across-failover", TypeBackendReachable, "no fetch has finished since a failover, so the good condition already on the object for the served generation is kept", backendResults),

		ruleChannelPending: one("binding/channel-joined/pending", TypeChannelJoined, "no channel look has finished for the served generation and no good condition of it is on the object",
			probeWrite(sUnknown, ReasonPending, "no look at the channel has finished yet", "No look at the channel has finished yet for this Binding.", "Wait for the next probe pass.")),
		ruleChannelProbe: many("binding/channel-joined/probe-result", TypeChannelJoined, "the newest channel look of a generation not above the served one decides, by the platform's answer", channelResults),
		ruleChannelKept:  many("binding/channel-joined/kept-across-failover", TypeChannelJoined, "no look has finished since a failover, so the good condition already on the object for the served generation is kept", channelResults),

		ruleReadyOK: one("binding/ready/ok", TypeReady, "Accepted and both probe conditions are True",
			write(sTrue, ReasonOK, "Every other condition is True: the agent answers in the channel.", "Nothing.")),
		ruleReadyProberNotListed: one("binding/ready/prober-not-listed", TypeReady, "the prober has not listed the Binding since the broker started and a probe condition is pending",
			conditions.Reason{Status: sUnknown, Reason: string(ReasonPending), Message: readyPendingMessage, Meaning: "The broker started moments ago and its prober has not listed this Binding yet.", Action: "Wait about 15 seconds."}),
		ruleReadyFromAccepted: {ID: "binding/ready/from-accepted", Kind: k, Types: []string{TypeReady}, Sentence: "Accepted is not True, so Ready carries its status and Accepted:<reason>"},
		ruleReadyFromProbe:    {ID: "binding/ready/from-probe-condition", Kind: k, Types: []string{TypeReady}, Sentence: "the first probe condition that is not True gives Ready its status and <type>:<reason>"},
		ruleStaleMemory:       {ID: "binding/stale-memory", Kind: k, Sentence: "the broker's memory serves a generation above metadata.generation, so the snapshot lags and the conditions are kept as they are"},
	}
	// Ready carries, as Type:Reason, every pair of the other types that
	// is not True, read from the rules that write them.
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
	return t
}()

func containsPair(ws []conditions.Reason, reason string) bool {
	for _, w := range ws {
		if w.Reason == reason {
			return true
		}
	}
	return false
}

// Vocabulary is the Binding's condition table: the four types in their
// written order and every (status, reason) pair each may carry, read
// from the rules. True conditions have empty messages.
var Vocabulary = conditions.MustVocabulary(akv1.APIVersion, akv1.KindBinding, []conditions.Type{
	{Name: TypeAccepted, Meaning: "Whether the broker took the Binding as written.", Required: true},
	{Name: TypeBackendReachable, Meaning: "Whether a fresh fetch of the agent's card worked and the card is usable."},
	{Name: TypeChannelJoined, Meaning: "Whether the bot is in the Binding's channel, which exists and is open."},
	{Name: TypeReady, Meaning: "Whether every other condition is True.", Required: true},
}, conditions.EmptyMessageWhenTrue(), conditions.FromRules(rules[:]))

// Rules is the table of the rules that decide a Binding's conditions, one
// sentence each, by condition type. The slice is a copy.
func Rules() []conditions.Rule { return Vocabulary.Rules() }
