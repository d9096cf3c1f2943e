package binding

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// Condition types of a Binding, in the order they are written.
const (
	TypeAccepted         = "Accepted"
	TypeBackendReachable = "BackendReachable"
	TypeChannelJoined    = "ChannelJoined"
	TypeReady            = conditions.TypeReady
)

// Reasons shared by several types.
const (
	ReasonOK           = "OK"
	ReasonPending      = "Pending"
	ReasonAccessDenied = "AccessDenied"
	ReasonRateLimited  = "RateLimited"
	ReasonProbeTimeout = "ProbeTimeout"
	ReasonProbeFailed  = "ProbeFailed"
)

// Accepted's False reasons, in the order their problems are listed.
const (
	ReasonInvalidSpec         = "InvalidSpec"
	ReasonBackendNotFound     = "BackendNotFound"
	ReasonBackendRejected     = "BackendRejected"
	ReasonConnectionNotFound  = "ConnectionNotFound"
	ReasonConnectionRejected  = "ConnectionRejected"
	ReasonNamespaceNotAllowed = "NamespaceNotAllowed"
	ReasonChannelConflict     = "ChannelConflict"
	// ReasonRejected stands for a refusal outside the listed reasons.
	ReasonRejected = "Rejected"
)

// BackendReachable's reasons besides the shared ones.
const (
	ReasonInvalidAgentCard = "InvalidAgentCard"
	ReasonAgentNotFound    = "AgentNotFound"
	ReasonBackendError     = "BackendError"
	ReasonUnreachable      = "Unreachable"
)

// ChannelJoined's reasons besides the shared ones.
const (
	ReasonChannelArchived = "ChannelArchived"
	ReasonNotInChannel    = "NotInChannel"
	ReasonChannelNotFound = "ChannelNotFound"
	ReasonPlatformTimeout = "PlatformTimeout"
	ReasonPlatformError   = "PlatformError"
)

const (
	sTrue    = metav1.ConditionTrue
	sFalse   = metav1.ConditionFalse
	sUnknown = metav1.ConditionUnknown
)

var acceptedReasons = []conditions.Reason{
	{Status: sTrue, Reason: ReasonOK, Meaning: "The broker took the Binding as written.", Action: "Nothing."},
	{Status: sFalse, Reason: ReasonInvalidSpec, Meaning: "A field of the Binding breaks one of the broker's checks.", Action: "Fix each field the message names."},
	{Status: sFalse, Reason: ReasonBackendNotFound, Meaning: "No AgentBackend has the name spec.agent.backendRef gives.", Action: "Create that AgentBackend or correct the reference."},
	{Status: sFalse, Reason: ReasonBackendRejected, Meaning: "The referenced AgentBackend fails the broker's checks; a good earlier generation of it may still run.", Action: "Ask the AgentBackend's owner to fix it."},
	{Status: sFalse, Reason: ReasonConnectionNotFound, Meaning: "No ChatConnection has the name spec.chat.connectionRef gives.", Action: "Create that ChatConnection or correct the reference."},
	{Status: sFalse, Reason: ReasonConnectionRejected, Meaning: "The referenced ChatConnection fails the broker's checks; a good earlier generation of it may still run.", Action: "Ask the ChatConnection's owner to fix it."},
	{Status: sFalse, Reason: ReasonNamespaceNotAllowed, Meaning: "A referenced object lives in another namespace that does not let this one use it.", Action: "Ask its owner to add this namespace to allowedNamespaces, or use an object of your own."},
	{Status: sFalse, Reason: ReasonChannelConflict, Meaning: "An older Binding on the same ChatConnection already holds the channel.", Action: "Pick another channel or remove the other Binding."},
	{Status: sFalse, Reason: ReasonRejected, Meaning: "The broker refused the Binding for a reason this version does not name.", Action: "Read the message and the broker's log."},
}

// logHasCause ends a probe message whose cause only the operator's log
// may show: whoever reads the Binding may not own the agent or the
// connection, so the message names nothing the prober touched.
const logHasCause = "the operator's log has the cause"

var backendReasons = []conditions.Reason{
	{Status: sTrue, Reason: ReasonOK, Meaning: "The last card fetch worked and the card is usable.", Action: "Nothing."},
	{Status: sUnknown, Reason: ReasonPending, Message: "no fetch of the agent card has finished yet", Meaning: "No card fetch has finished yet for this Binding.", Action: "Wait for the next probe pass."},
	{Status: sFalse, Reason: ReasonInvalidAgentCard, Message: "the agent card is too large, not JSON, or lacks a field the broker needs; " + logHasCause, Meaning: "The card was too large, not JSON, or lacked what the broker needs.", Action: "Fix the card the agent serves."},
	{Status: sFalse, Reason: ReasonAgentNotFound, Message: "the agent has no card at the configured path; " + logHasCause, Meaning: "The agent answered that no card lives at the configured path.", Action: "Check the AgentBackend's url and cardPath."},
	{Status: sFalse, Reason: ReasonAccessDenied, Message: "the agent refused the card fetch; " + logHasCause, Meaning: "The agent refused the card fetch.", Action: "Check the credential the AgentBackend sends."},
	{Status: sUnknown, Reason: ReasonRateLimited, Message: "the agent asked the prober to slow down, so the fetch could not tell; " + logHasCause, Meaning: "The agent asked the prober to slow down, so the fetch told nothing.", Action: "Wait; the next pass tries again."},
	{Status: sFalse, Reason: ReasonBackendError, Message: "the agent answered the card fetch with an unexpected status; " + logHasCause, Meaning: "The agent answered the card fetch with an unexpected status.", Action: "Look at the agent's health and logs."},
	{Status: sFalse, Reason: ReasonUnreachable, Message: "nothing answered the card fetch; " + logHasCause, Meaning: "Nothing answered the card fetch.", Action: "Check the agent runs and its address resolves and accepts TLS."},
	{Status: sUnknown, Reason: ReasonProbeTimeout, Message: "the card fetch ran past the prober's time limit; " + logHasCause, Meaning: "The fetch was still running when the prober's time limit hit.", Action: "Look at the agent's latency; the next pass tries again."},
	{Status: sUnknown, Reason: ReasonProbeFailed, Message: "the prober could not fetch the agent card; " + logHasCause, Meaning: "The prober could not make the fetch, for example a Secret was missing.", Action: "Read the broker's log for the cause."},
}

var channelReasons = []conditions.Reason{
	{Status: sTrue, Reason: ReasonOK, Meaning: "The bot is in the channel, which exists and is open.", Action: "Nothing."},
	{Status: sUnknown, Reason: ReasonPending, Message: "no look at the channel has finished yet", Meaning: "No look at the channel has finished yet for this Binding.", Action: "Wait for the next probe pass."},
	{Status: sFalse, Reason: ReasonChannelArchived, Message: "the channel is archived; " + logHasCause, Meaning: "The channel is archived.", Action: "Unarchive it or bind another channel."},
	{Status: sFalse, Reason: ReasonNotInChannel, Message: "the bot is not a member of the channel; " + logHasCause, Meaning: "The bot is not a member of the channel.", Action: "Invite the bot into the channel."},
	{Status: sFalse, Reason: ReasonChannelNotFound, Message: "the chat platform cannot find the channel for the bot; " + logHasCause, Meaning: "The platform knows no such channel, or the bot cannot see it.", Action: "Check the channel ID, or invite the bot if it is private."},
	{Status: sFalse, Reason: ReasonAccessDenied, Message: "the chat platform refused the bot's credentials; " + logHasCause, Meaning: "The platform refused the bot's token or its scopes.", Action: "Check the token the ChatConnection names and its scopes."},
	{Status: sUnknown, Reason: ReasonRateLimited, Message: "the chat platform asked the prober to slow down, so the look could not tell; " + logHasCause, Meaning: "The platform asked the prober to slow down, so the look told nothing.", Action: "Wait; the next pass tries again."},
	{Status: sUnknown, Reason: ReasonPlatformTimeout, Message: "the chat platform gave up on the request; " + logHasCause, Meaning: "The platform gave up on the request within its own deadline.", Action: "Wait; the next pass tries again."},
	{Status: sUnknown, Reason: ReasonPlatformError, Message: "the chat platform did not give a usable answer; " + logHasCause, Meaning: "The platform did not answer, or answered with an error the broker does not classify.", Action: "Read the broker's log; check the platform's status page."},
	{Status: sUnknown, Reason: ReasonProbeTimeout, Message: "the look at the channel ran past the prober's time limit; " + logHasCause, Meaning: "The look was still running when the prober's time limit hit.", Action: "Wait; the next pass tries again."},
	{Status: sUnknown, Reason: ReasonProbeFailed, Message: "the prober could not look at the channel; " + logHasCause, Meaning: "The prober could not make the call, for example the token Secret was missing.", Action: "Read the broker's log for the cause."},
}

// readyReasons derives Ready's pairs from the other three types: OK, the
// bare startup Pending, and Type:Reason for every pair that is not True,
// with that pair's status. Deriving them keeps the two lists from
// drifting apart.
func readyReasons() []conditions.Reason {
	out := []conditions.Reason{
		{Status: sTrue, Reason: ReasonOK, Meaning: "Every other condition is True: the agent answers in the channel.", Action: "Nothing."},
		{Status: sUnknown, Reason: ReasonPending, Meaning: "The broker started moments ago and its prober has not listed this Binding yet.", Action: "Wait about 15 seconds."},
	}
	for _, src := range []struct {
		typ     string
		reasons []conditions.Reason
	}{{TypeAccepted, acceptedReasons}, {TypeBackendReachable, backendReasons}, {TypeChannelJoined, channelReasons}} {
		for _, r := range src.reasons {
			if r.Status == sTrue {
				continue
			}
			out = append(out, conditions.Reason{
				Status:  r.Status,
				Reason:  src.typ + ":" + r.Reason,
				Meaning: src.typ + " holds the Binding back: " + r.Meaning,
				Action:  r.Action,
			})
		}
	}
	return out
}

// Vocabulary is the Binding's condition table: the four types in their
// written order and every (status, reason) pair each may carry. True
// conditions have empty messages.
var Vocabulary = conditions.MustVocabulary(akv1.APIVersion, akv1.KindBinding, []conditions.Type{
	{Name: TypeAccepted, Meaning: "Whether the broker took the Binding as written.", Required: true, Reasons: acceptedReasons},
	{Name: TypeBackendReachable, Meaning: "Whether a fresh fetch of the agent's card worked and the card is usable.", Reasons: backendReasons},
	{Name: TypeChannelJoined, Meaning: "Whether the bot is in the Binding's channel, which exists and is open.", Reasons: channelReasons},
	{Name: TypeReady, Meaning: "Whether every other condition is True.", Required: true, Reasons: readyReasons()},
}, conditions.EmptyMessageWhenTrue())
