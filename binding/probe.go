package binding

import (
	"encoding/json"
	"errors"
	"fmt"
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
func probeMessage(typ, reason string) string {
	return probeMessages[[2]string{typ, reason}]
}

// probeMessages indexes the fixed sentences of the probe conditions, as
// the rules declare them, by (type, reason).
var probeMessages = func() map[[2]string]string {
	out := map[[2]string]string{}
	for _, r := range rules {
		for _, w := range r.Writes {
			if w.Message != "" && len(r.Types) == 1 && (r.Types[0] == TypeBackendReachable || r.Types[0] == TypeChannelJoined) {
				out[[2]string{r.Types[0], w.Reason}] = w.Message
			}
		}
	}
	return out
}()

// recordProbe records what the verdict v of BackendReachable or
// ChannelJoined read: the referenced object, the served generation, and
// the result picked (r, classified as cv), the Pending found, or the
// condition kept.
func recordProbe(rec *conditions.Recorder, self conditions.ObjectRef, b *bstate, o *akv1.Binding, typ string, servedGen int64, r *ProbeResult, cv verdict, v conditions.Verdict) {
	rec.Read(typ, self)
	what := "probe.backend"
	if typ == TypeChannelJoined {
		what = "probe.channel"
		if b.conn != nil {
			rec.Read(typ, ref(akv1.KindChatConnection, &b.conn.obj.ObjectMeta), conditions.F("spec.platform", b.conn.obj.Spec.Platform))
		}
	} else if b.backend != nil {
		rec.Read(typ, ref(akv1.KindAgentBackend, &b.backend.obj.ObjectMeta), conditions.F("spec.url", b.backend.obj.Spec.URL))
	}
	rec.Read(typ, self, conditions.FInt("servedGeneration", servedGen))
	switch v.Rule {
	case &rules[ruleBackendProbe], &rules[ruleChannelProbe]:
		res := cv.cause
		if res == "" {
			res = string(cv.status) + " " + string(cv.reason)
		}
		rec.Read(typ, self, conditions.FInt(what+".generation", r.Generation), conditions.F(what+".result", res))
	case &rules[ruleBackendPending], &rules[ruleChannelPending]:
		rec.Read(typ, self, conditions.F(what, "no finished result for a generation up to the served one"))
	default:
		if cur := conditions.Find(o.Status.Conditions, typ); cur != nil {
			rec.Read(typ, self, conditions.F("status.conditions["+typ+"].reason", cur.Reason),
				conditions.FInt("status.conditions["+typ+"].observedGeneration", cur.ObservedGeneration),
				conditions.FTime("status.conditions["+typ+"].lastTransitionTime", cur.LastTransitionTime.Time),
				conditions.FTime("metadata.creationTimestamp", o.CreationTimestamp.Time))
		}
	}
	rec.Decided(typ, "", v)
}
