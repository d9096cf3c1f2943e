package binding

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// MaxCardBytes is the largest agent card the broker accepts; the prober
// reads one byte more to tell a card of exactly this size from a larger one.
const MaxCardBytes = 1 << 20

// AgentCard holds the fields of an A2A agent card that decide whether the
// broker can use it.
type AgentCard struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	// URL is the top-level endpoint of pre-1.0 cards.
	URL                 string           `json:"url"`
	SupportedInterfaces []AgentInterface `json:"supportedInterfaces"`
}

// AgentInterface is one entry of a card's supportedInterfaces.
type AgentInterface struct {
	URL             string `json:"url"`
	ProtocolBinding string `json:"protocolBinding"`
}

// ParseCard decodes a card body. It fails when the body is not one JSON
// object, when name or version is not a JSON string (a number is not a
// version), or when, without a non-empty top-level url, supportedInterfaces
// or one of its entries' url and protocolBinding has the wrong type. With
// a non-empty top-level url the card is usable whatever supportedInterfaces
// holds: it is then read only when it decodes,
// and left empty otherwise. A top-level url that is not a string counts
// as none.
func ParseCard(body []byte) (*AgentCard, error) {
	var raw json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, fmt.Errorf("card is not JSON: %w", err)
	}
	if len(raw) == 0 || raw[0] != '{' {
		return nil, errors.New("card is not a JSON object")
	}
	var w struct {
		Name                string          `json:"name"`
		Version             string          `json:"version"`
		URL                 json.RawMessage `json:"url"`
		SupportedInterfaces json.RawMessage `json:"supportedInterfaces"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, fmt.Errorf("card: %w", err)
	}
	c := AgentCard{Name: w.Name, Version: w.Version}
	if len(w.URL) > 0 && w.URL[0] == '"' {
		_ = json.Unmarshal(w.URL, &c.URL) // a quoted JSON string always decodes
	}
	if len(w.SupportedInterfaces) > 0 {
		err := json.Unmarshal(w.SupportedInterfaces, &c.SupportedInterfaces)
		switch {
		case err != nil && c.URL == "":
			return nil, fmt.Errorf("card supportedInterfaces: %w", err)
		case err != nil:
			c.SupportedInterfaces = nil // the top-level url decides alone
		}
	}
	return &c, nil
}

// Problem says why the card cannot be used, or "" when it can: it needs
// a non-empty name and version, and then either a non-empty top-level url
// (whatever supportedInterfaces holds) or a non-empty supportedInterfaces
// whose entries each have a non-empty url and protocolBinding.
func (c *AgentCard) Problem() string {
	switch {
	case c.Name == "":
		return "card has no name"
	case c.Version == "":
		return "card has no version"
	case c.URL != "":
		return "" // a top-level url makes the card usable on its own
	case len(c.SupportedInterfaces) == 0:
		return "card has neither supportedInterfaces nor url"
	}
	for i, in := range c.SupportedInterfaces {
		if in.URL == "" || in.ProtocolBinding == "" {
			return "card supportedInterfaces[" + strconv.Itoa(i) + "] lacks url or protocolBinding"
		}
	}
	return ""
}

// Reasons of BackendReachable and ChannelJoined.
const (
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

// logHasCause ends a probe message whose cause only the operator's log
// may show: whoever reads the Binding may not own the agent or the
// connection, so the message names nothing the prober touched.
const logHasCause = "the operator's log has the cause"

// The rules of BackendReachable and ChannelJoined.
const (
	ruleBackendPending ruleIndex = acceptedEnd + iota
	ruleBackendProbe
	ruleBackendKept
	ruleChannelPending
	ruleChannelProbe
	ruleChannelKept
	probeEnd
)

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

var probeRules = []conditions.Rule{
	ruleBackendPending: rule("binding/backend-reachable/pending", TypeBackendReachable, "no card fetch has finished for the served generation and no good condition of it is on the object",
		probeWrite(sUnknown, ReasonPending, "no fetch of the agent card has finished yet", "No card fetch has finished yet for this Binding.", "Wait for the next probe pass.")),
	ruleBackendProbe: rule("binding/backend-reachable/probe-result", TypeBackendReachable, "the newest card fetch of a generation not above the served one decides, by HTTP status, error, timeout and card", backendResults...),
	ruleBackendKept:  rule("binding/backend-reachable/kept-across-failover", TypeBackendReachable, "no fetch has finished since a failover, so the good condition already on the object for the served generation is kept", backendResults...),
	ruleChannelPending: rule("binding/channel-joined/pending", TypeChannelJoined, "no channel look has finished for the served generation and no good condition of it is on the object",
		probeWrite(sUnknown, ReasonPending, "no look at the channel has finished yet", "No look at the channel has finished yet for this Binding.", "Wait for the next probe pass.")),
	ruleChannelProbe: rule("binding/channel-joined/probe-result", TypeChannelJoined, "the newest channel look of a generation not above the served one decides, by the platform's answer", channelResults...),
	ruleChannelKept:  rule("binding/channel-joined/kept-across-failover", TypeChannelJoined, "no look has finished since a failover, so the good condition already on the object for the served generation is kept", channelResults...),
}

// probeVerdict decides BackendReachable or ChannelJoined from the
// chosen result, into *out. With none it is Pending at the served
// generation, unless the object already carries a good condition of that
// generation: a fresh leader must not write Pending over what the last
// one found. It returns the cause for the log, if any, and the condition
// kept.
func probeVerdict(out *conditions.Verdict, o *akv1.Binding, conds []metav1.Condition, typ string, servedGen int64, v *verdict, gen int64) (*Cause, *metav1.Condition) {
	probe, pend, kept := ruleBackendProbe, ruleBackendPending, ruleBackendKept
	if typ == TypeChannelJoined {
		probe, pend, kept = ruleChannelProbe, ruleChannelPending, ruleChannelKept
	}
	if v.reason == ReasonPending {
		if c := keepGood(o, conds, typ, servedGen); c != nil {
			// The result is kept, in our own words: a message someone
			// else wrote there is not carried on.
			*out = conditions.Verdict{Rule: &rules[kept], Status: c.Status, Reason: c.Reason,
				Message: probeMessage(typ, c.Reason), Generation: c.ObservedGeneration}
			return nil, c
		}
		*out = rules[pend].Verdict(0, "", gen)
		return nil, nil
	}
	*out = conditions.Verdict{Rule: &rules[probe], Status: v.status, Reason: string(v.reason),
		Message: probeMessage(typ, string(v.reason)), Generation: gen}
	if v.cause == "" {
		return nil, nil
	}
	return &Cause{Type: typ, Reason: string(v.reason), Detail: capCause(v.cause)}, nil
}

// keepGood finds a condition of typ among conds (the object's, at whole
// seconds) that Pending must not replace, nil when there is none: a reason one of typ's rules writes,
// other than Pending, about the served generation, and made for this
// object (not carried over from an earlier object of the same name, whose
// transitions predate this one).
func keepGood(o *akv1.Binding, conds []metav1.Condition, typ string, servedGen int64) *metav1.Condition {
	for i := range conds {
		c := &conds[i]
		if c.Type != typ {
			continue
		}
		if c.Reason == string(ReasonPending) || c.ObservedGeneration != servedGen || c.LastTransitionTime.Before(&o.CreationTimestamp) ||
			!written(typ, c.Status, c.Reason) {
			return nil
		}
		return c
	}
	return nil
}

// written reports whether one of the rules deciding typ writes (status,
// reason): the pairs the vocabulary lists, read from the table itself.
func written(typ string, status metav1.ConditionStatus, reason string) bool {
	for i := range rules {
		if !slices.Contains(rules[i].Types, typ) {
			continue
		}
		for _, w := range rules[i].Writes {
			if w.Status == status && w.Reason == reason {
				return true
			}
		}
	}
	return false
}

// verdict is a classified probe: the condition's status and reason, and
// the raw cause for the log ("" for OK and Pending).
type verdict struct {
	status metav1.ConditionStatus
	reason Reason
	cause  string
}

var pending = verdict{status: sUnknown, reason: ReasonPending}

// classifyBackend turns a card fetch into BackendReachable's verdict.
// Rows are read in the order of the decisions' table and the first that
// matches decides: the answer's HTTP status
// (200 with the card's verdict, then 404/410, 401/403, 408/425/429, any
// other), then no answer, then the prober's timeout, then its failure.
// A prober never sends two of these at once; a hand-written observation
// that does still gets one answer.
func classifyBackend(o *BackendObservation) verdict {
	code := o.statusCode()
	switch {
	case o == nil:
		return pending
	case code == 200:
		return classifyCard(o)
	case code == 404 || code == 410:
		return verdict{sFalse, ReasonAgentNotFound, httpCause(code, o.RetryAfter)}
	case code == 401 || code == 403:
		return verdict{sFalse, ReasonAccessDenied, httpCause(code, o.RetryAfter)}
	case code == 408 || code == 425 || code == 429:
		return verdict{sUnknown, ReasonRateLimited, httpCause(code, o.RetryAfter)}
	case code != 0:
		return verdict{sFalse, ReasonBackendError, httpCause(code, o.RetryAfter)}
	case o.Error != "":
		return verdict{sFalse, ReasonUnreachable, "card fetch got no answer: " + o.Error}
	case o.Timeout:
		return verdict{sUnknown, ReasonProbeTimeout, "card fetch still running at the prober's limit"}
	case o.Failed != "":
		return verdict{sUnknown, ReasonProbeFailed, "prober could not fetch the card: " + o.Failed}
	}
	// No status, no error, no timeout: the prober produced an empty
	// observation, which is its own fault.
	return verdict{sUnknown, ReasonProbeFailed, "prober reported an empty card fetch"}
}

func (o *BackendObservation) statusCode() int {
	if o == nil {
		return 0
	}
	return o.HTTPStatus
}

func httpCause(code, retryAfter int) string {
	s := "card fetch answered HTTP " + strconv.Itoa(code)
	if retryAfter > 0 {
		s += ", retry after " + strconv.Itoa(retryAfter) + "s"
	}
	return s
}

func classifyCard(o *BackendObservation) verdict {
	size := max(int64(len(o.Body)), o.BodyBytes)
	if size > MaxCardBytes {
		return verdict{sFalse, ReasonInvalidAgentCard, "card is " + strconv.FormatInt(size, 10) + " bytes, more than 1 MiB"}
	}
	card := o.Card
	if card == nil {
		c, err := ParseCard(o.Body)
		if err != nil {
			return verdict{sFalse, ReasonInvalidAgentCard, err.Error()}
		}
		card = c
	}
	if p := card.Problem(); p != "" {
		return verdict{sFalse, ReasonInvalidAgentCard, p}
	}
	return verdict{status: sTrue, reason: ReasonOK}
}

// classifyChannel turns the platform's answer into ChannelJoined's
// verdict. Rows are read in the order of the decisions' table and the
// first that matches decides: archived and not a
// member is ChannelArchived; an error code with a row of its own
// outranks an HTTP 429, request_timeout included (an unknown code does
// not: docs/decisions/probe-429-timeout.md); the prober's timeout and
// failure come last.
func classifyChannel(o *ChannelObservation) verdict {
	if o == nil {
		return pending
	}
	row := Reason("")
	if o.Error != "" {
		row = channelErrorReason(o.Error)
	}
	switch {
	case o.OK && o.IsMember && !o.IsArchived && row == "":
		return verdict{status: sTrue, reason: ReasonOK}
	case o.OK && o.IsArchived:
		return verdict{sFalse, ReasonChannelArchived, "platform says the channel is archived"}
	case row == ReasonChannelArchived:
		return channelError(o)
	case o.OK && !o.IsMember:
		return verdict{sFalse, ReasonNotInChannel, "platform says the bot is not a member"}
	case row == ReasonNotInChannel || row == ReasonChannelNotFound || row == ReasonAccessDenied || row == ReasonPlatformTimeout:
		return channelError(o)
	case o.HTTPStatus == 429:
		return verdict{sUnknown, ReasonRateLimited, platformCause("HTTP 429", o.RetryAfter)}
	case row != "":
		return channelError(o)
	case o.HTTPStatus != 0 && o.HTTPStatus != 200:
		return verdict{sUnknown, ReasonPlatformError, platformCause("HTTP "+strconv.Itoa(o.HTTPStatus), 0)}
	case o.Timeout:
		return verdict{sUnknown, ReasonProbeTimeout, "channel look still running at the prober's limit"}
	case o.Failed != "":
		return verdict{sUnknown, ReasonProbeFailed, "prober could not look at the channel: " + o.Failed}
	}
	return verdict{sUnknown, ReasonPlatformError, "platform answered without ok and without an error"}
}

func channelError(o *ChannelObservation) verdict {
	return verdict{channelErrorStatus(o.Error), channelErrorReason(o.Error), platformCause("error "+o.Error, o.RetryAfter)}
}

func platformCause(what string, retryAfter int) string {
	s := "platform answered " + what
	if retryAfter > 0 {
		s += ", retry after " + strconv.Itoa(retryAfter) + "s"
	}
	return s
}

func channelErrorReason(code string) Reason {
	switch code {
	case "is_archived":
		return ReasonChannelArchived
	case "not_in_channel", "method_not_supported_for_channel_type":
		return ReasonNotInChannel
	case "channel_not_found":
		return ReasonChannelNotFound
	case "invalid_auth", "not_authed", "token_revoked", "token_expired", "account_inactive",
		"missing_scope", "no_permission", "channel_is_limited_access":
		return ReasonAccessDenied
	case "ratelimited", "rate_limited":
		return ReasonRateLimited
	case "request_timeout":
		return ReasonPlatformTimeout
	}
	return ReasonPlatformError
}

func channelErrorStatus(code string) metav1.ConditionStatus {
	switch channelErrorReason(code) {
	case ReasonRateLimited, ReasonPlatformTimeout, ReasonPlatformError:
		return sUnknown
	}
	return sFalse
}

// ProbeMessage is the fixed sentence a BackendReachable or ChannelJoined
// condition with this reason carries; "" for OK and for anything else.
func ProbeMessage(typ string, reason Reason) string { return probeMessage(typ, string(reason)) }

// probeMessage is the fixed sentence for a probe condition; True has none.
// A type has about ten reasons, so a scan of its list, whose reasons are
// mostly of other lengths than the one sought, beats hashing two strings.
func probeMessage(typ, reason string) string {
	var texts []probeText
	switch typ {
	case TypeBackendReachable:
		texts = probeTexts[0]
	case TypeChannelJoined:
		texts = probeTexts[1]
	}
	for k := range texts {
		if texts[k].reason == reason {
			return texts[k].message
		}
	}
	return ""
}

// probeText is a probe condition's reason and its fixed sentence.
type probeText struct{ reason, message string }

// probeTexts lists the fixed sentences of BackendReachable's and of
// ChannelJoined's reasons, as the rules declare them; a pair declared
// twice (the probe-result and kept-across-failover rules) is listed once.
var probeTexts = func() (out [2][]probeText) {
	for _, r := range rules {
		if len(r.Types) != 1 || (r.Types[0] != TypeBackendReachable && r.Types[0] != TypeChannelJoined) {
			continue
		}
		k := 0
		if r.Types[0] == TypeChannelJoined {
			k = 1
		}
		for _, w := range r.Writes {
			if w.Message == "" {
				continue
			}
			at := slices.IndexFunc(out[k], func(t probeText) bool { return t.reason == w.Reason })
			if at < 0 {
				out[k] = append(out[k], probeText{w.Reason, w.Message})
			} else {
				out[k][at].message = w.Message
			}
		}
	}
	return out
}()

// recordProbe records what the verdict v of BackendReachable or
// ChannelJoined read: the referenced object, the served generation, and
// the result picked (r, classified as cv), the Pending found, or the
// condition kept (cur, as keepGood found it).
func recordProbe(rec *recording, self conditions.ObjectRef, b *bstate, o *akv1.Binding, typ string, servedGen int64, r *ProbeResult, cv verdict, v conditions.Verdict, cur *metav1.Condition) {
	rec.read(typ, self)
	what := "probe.backend"
	if typ == TypeChannelJoined {
		what = "probe.channel"
		if b.conn != nil {
			rec.read(typ, ref(akv1.KindChatConnection, &b.conn.obj.ObjectMeta), fact("spec.platform", b.conn.obj.Spec.Platform))
		}
	} else if b.backend != nil {
		rec.read(typ, ref(akv1.KindAgentBackend, &b.backend.obj.ObjectMeta), fact("spec.url", b.backend.obj.Spec.URL))
	}
	rec.read(typ, self, intFact("servedGeneration", servedGen))
	switch v.Rule {
	case &rules[ruleBackendProbe], &rules[ruleChannelProbe]:
		res := cv.cause
		if res == "" {
			res = string(cv.status) + " " + string(cv.reason)
		}
		rec.read(typ, self, intFact(what+".generation", r.Generation), fact(what+".result", res))
	case &rules[ruleBackendPending], &rules[ruleChannelPending]:
		rec.read(typ, self, fact(what, "no finished result for a generation up to the served one"))
	default:
		if cur != nil {
			rec.read(typ, self, fact("status.conditions["+typ+"].reason", cur.Reason),
				intFact("status.conditions["+typ+"].observedGeneration", cur.ObservedGeneration),
				timeFact("status.conditions["+typ+"].lastTransitionTime", cur.LastTransitionTime.Time),
				timeFact("metadata.creationTimestamp", o.CreationTimestamp.Time))
		}
	}
	rec.decided(typ, "", v)
}
