package binding_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/binding"
	bt "github.com/condengine/condengine/binding/bindingtest"
)

type row struct {
	observation string
	status      metav1.ConditionStatus
	reason      string
}

// probeOnce evaluates one healthy Binding with the given observations and
// returns its result.
func probeOnce(t *testing.T, be *binding.BackendObservation, ch *binding.ChannelObservation) binding.Outcome {
	t.Helper()
	b := bt.NewBinding("team-a", "chat")
	s := world(b)
	s.Probes = []binding.ProbeResult{bt.Probe(b, 1, be, ch)}
	_, m := evaluate(t, s)
	return get(t, m, "team-a/chat")
}

func TestProbe_BackendClassification(t *testing.T) {
	card := `{"name":"echo","version":"1.0","supportedInterfaces":[{"url":"https://e/a2a","protocolBinding":"JSONRPC"}]}`
	cases := []struct {
		row
		obs *binding.BackendObservation
	}{
		{row{"HTTP 200, usable 1.0 card", "True", "OK"}, bt.CardBody(card)},
		{row{"HTTP 200, usable pre-1.0 card with a top-level url", "True", "OK"}, bt.CardBody(`{"name":"e","version":"0.3","url":"https://e"}`)},
		{row{"HTTP 200, parsed card", "True", "OK"}, bt.CardOK()},
		{row{"HTTP 200, exactly 1 MiB", "True", "OK"}, &binding.BackendObservation{HTTPStatus: 200, Body: []byte(card), BodyBytes: binding.MaxCardBytes}},
		{row{"no finished probe", "Unknown", "Pending"}, nil},
		{row{"body over 1 MiB", "False", "InvalidAgentCard"}, &binding.BackendObservation{HTTPStatus: 200, Body: []byte(card), BodyBytes: binding.MaxCardBytes + 1}},
		{row{"body over 1 MiB, as read", "False", "InvalidAgentCard"}, bt.CardBody(strings.Repeat(" ", binding.MaxCardBytes) + card)},
		{row{"not JSON", "False", "InvalidAgentCard"}, bt.CardBody("<html>")},
		{row{"JSON but not an object", "False", "InvalidAgentCard"}, bt.CardBody(`["a"]`)},
		{row{"no version", "False", "InvalidAgentCard"}, bt.CardBody(`{"name":"e","url":"https://e"}`)},
		{row{"no name", "False", "InvalidAgentCard"}, bt.CardBody(`{"version":"1","url":"https://e"}`)},
		{row{"neither interfaces nor url", "False", "InvalidAgentCard"}, bt.CardBody(`{"name":"e","version":"1"}`)},
		{row{"interface without protocolBinding", "False", "InvalidAgentCard"}, bt.CardBody(`{"name":"e","version":"1","supportedInterfaces":[{"url":"u"}]}`)},
		{row{"interface without url", "False", "InvalidAgentCard"}, bt.CardBody(`{"name":"e","version":"1","supportedInterfaces":[{"protocolBinding":"GRPC"}]}`)},
		{row{"name of the wrong type", "False", "InvalidAgentCard"}, bt.CardBody(`{"name":5,"version":"1","url":"u"}`)},
		{row{"HTTP 404", "False", "AgentNotFound"}, bt.HTTP(404)},
		{row{"HTTP 410", "False", "AgentNotFound"}, bt.HTTP(410)},
		{row{"HTTP 401", "False", "AccessDenied"}, bt.HTTP(401)},
		{row{"HTTP 403", "False", "AccessDenied"}, bt.HTTP(403)},
		{row{"HTTP 408", "Unknown", "RateLimited"}, bt.HTTP(408)},
		{row{"HTTP 425", "Unknown", "RateLimited"}, bt.HTTP(425)},
		{row{"HTTP 429", "Unknown", "RateLimited"}, &binding.BackendObservation{HTTPStatus: 429, RetryAfter: 30}},
		{row{"HTTP 500", "False", "BackendError"}, bt.HTTP(500)},
		{row{"HTTP 503", "False", "BackendError"}, bt.HTTP(503)},
		{row{"HTTP 301", "False", "BackendError"}, bt.HTTP(301)},
		{row{"HTTP 201", "False", "BackendError"}, bt.HTTP(201)},
		{row{"DNS failure", "False", "Unreachable"}, bt.NoAnswer(binding.NetErrorDNS)},
		{row{"connection refused", "False", "Unreachable"}, bt.NoAnswer(binding.NetErrorRefused)},
		{row{"connection reset", "False", "Unreachable"}, bt.NoAnswer(binding.NetErrorReset)},
		{row{"TLS failure", "False", "Unreachable"}, bt.NoAnswer(binding.NetErrorTLS)},
		{row{"still running at 10 s", "Unknown", "ProbeTimeout"}, bt.BackendTimeout()},
		{row{"Secret missing", "Unknown", "ProbeFailed"}, bt.BackendFailed("secret team-a/token not found")},
		{row{"empty observation", "Unknown", "ProbeFailed"}, &binding.BackendObservation{}},
		// §11.7: two rows match; the first in table order decides.
		{row{"HTTP status and no answer", "False", "AgentNotFound"}, &binding.BackendObservation{HTTPStatus: 404, Error: binding.NetErrorReset}},
		{row{"no answer and timeout", "False", "Unreachable"}, &binding.BackendObservation{Error: binding.NetErrorDNS, Timeout: true}},
		{row{"timeout and prober failure", "Unknown", "ProbeTimeout"}, &binding.BackendObservation{Timeout: true, Failed: "x"}},
	}
	for _, tc := range cases {
		t.Run(tc.observation, func(t *testing.T) {
			br := probeOnce(t, tc.obs, bt.Joined())
			c := cond(t, br, binding.TypeBackendReachable)
			assert.Equal(t, tc.status, c.Status)
			assert.Equal(t, tc.reason, c.Reason)
			assert.Equal(t, binding.ProbeMessage(binding.TypeBackendReachable, binding.Reason(tc.reason)), c.Message)
			if tc.status != metav1.ConditionTrue && tc.reason != string(binding.ReasonPending) {
				require.Len(t, br.Causes, 1, "the raw cause goes to the log")
				assert.Equal(t, binding.TypeBackendReachable, br.Causes[0].Type)
			}
		})
	}
}

func TestProbe_ChannelClassification(t *testing.T) {
	cases := []struct {
		row
		obs *binding.ChannelObservation
	}{
		{row{"ok, member, not archived", "True", "OK"}, bt.Joined()},
		{row{"no finished probe", "Unknown", "Pending"}, nil},
		{row{"archived", "False", "ChannelArchived"}, bt.ChannelState(true, true)},
		{row{"archived and not a member", "False", "ChannelArchived"}, bt.ChannelState(false, true)},
		{row{"error is_archived", "False", "ChannelArchived"}, bt.PlatformError("is_archived")},
		{row{"not a member", "False", "NotInChannel"}, bt.ChannelState(false, false)},
		{row{"error not_in_channel", "False", "NotInChannel"}, bt.PlatformError("not_in_channel")},
		{row{"error method_not_supported_for_channel_type", "False", "NotInChannel"}, bt.PlatformError("method_not_supported_for_channel_type")},
		{row{"error channel_not_found", "False", "ChannelNotFound"}, bt.PlatformError("channel_not_found")},
		{row{"error invalid_auth", "False", "AccessDenied"}, bt.PlatformError("invalid_auth")},
		{row{"error not_authed", "False", "AccessDenied"}, bt.PlatformError("not_authed")},
		{row{"error token_revoked", "False", "AccessDenied"}, bt.PlatformError("token_revoked")},
		{row{"error token_expired", "False", "AccessDenied"}, bt.PlatformError("token_expired")},
		{row{"error account_inactive", "False", "AccessDenied"}, bt.PlatformError("account_inactive")},
		{row{"error missing_scope", "False", "AccessDenied"}, bt.PlatformError("missing_scope")},
		{row{"error no_permission", "False", "AccessDenied"}, bt.PlatformError("no_permission")},
		{row{"error channel_is_limited_access", "False", "AccessDenied"}, bt.PlatformError("channel_is_limited_access")},
		{row{"HTTP 429", "Unknown", "RateLimited"}, &binding.ChannelObservation{HTTPStatus: 429, RetryAfter: 30}},
		// §11.7: rows in table order; channel_not_found's row is above the 429 row.
		{row{"HTTP 429 with an error body of an earlier row", "False", "ChannelNotFound"}, &binding.ChannelObservation{HTTPStatus: 429, Error: "channel_not_found"}},
		{row{"HTTP 429 with an error body no row names", "Unknown", "RateLimited"}, &binding.ChannelObservation{HTTPStatus: 429, Error: "fatal_error"}},
		// docs/decisions/probe-429-timeout.md: the platform's own deadline
		// is its own row, read before the status.
		{row{"HTTP 429 with error request_timeout", "Unknown", "PlatformTimeout"}, &binding.ChannelObservation{HTTPStatus: 429, Error: "request_timeout", RetryAfter: 30}},
		{row{"HTTP 429 with error ratelimited", "Unknown", "RateLimited"}, &binding.ChannelObservation{HTTPStatus: 429, Error: "ratelimited", RetryAfter: 30}},
		{row{"archived and an error not_in_channel", "False", "ChannelArchived"}, &binding.ChannelObservation{OK: true, IsMember: true, IsArchived: true, Error: "not_in_channel"}},
		{row{"ok member with an error code", "False", "AccessDenied"}, &binding.ChannelObservation{OK: true, IsMember: true, Error: "invalid_auth"}},
		{row{"an error outranks the prober's timeout", "Unknown", "PlatformTimeout"}, &binding.ChannelObservation{Error: "request_timeout", Timeout: true}},
		{row{"timeout outranks the prober's failure", "Unknown", "ProbeTimeout"}, &binding.ChannelObservation{Timeout: true, Failed: "x"}},
		{row{"error ratelimited", "Unknown", "RateLimited"}, bt.PlatformError("ratelimited")},
		{row{"error rate_limited", "Unknown", "RateLimited"}, bt.PlatformError("rate_limited")},
		{row{"error request_timeout", "Unknown", "PlatformTimeout"}, bt.PlatformError("request_timeout")},
		{row{"HTTP 503, no answer", "Unknown", "PlatformError"}, bt.PlatformHTTP(503)},
		{row{"not ok, no error", "Unknown", "PlatformError"}, &binding.ChannelObservation{}},
		{row{"any other error", "Unknown", "PlatformError"}, bt.PlatformError("fatal_error")},
		{row{"an error code nobody knows", "Unknown", "PlatformError"}, bt.PlatformError("brand_new_error")},
		{row{"still running at 10 s", "Unknown", "ProbeTimeout"}, bt.ChannelTimeout()},
		{row{"prober could not run it", "Unknown", "ProbeFailed"}, bt.ChannelFailed("token Secret unreadable")},
	}
	for _, tc := range cases {
		t.Run(tc.observation, func(t *testing.T) {
			br := probeOnce(t, bt.CardOK(), tc.obs)
			c := cond(t, br, binding.TypeChannelJoined)
			assert.Equal(t, tc.status, c.Status)
			assert.Equal(t, tc.reason, c.Reason)
			assert.Equal(t, binding.ProbeMessage(binding.TypeChannelJoined, binding.Reason(tc.reason)), c.Message)
		})
	}
}

func TestProbe_MessagesNeverShowTheRawCause(t *testing.T) {
	const raw = "https://10.1.2.3:8443/secret-host canary-platform-text"
	for _, br := range []binding.Outcome{
		probeOnce(t, bt.BackendFailed(raw), bt.ChannelFailed(raw)),
		probeOnce(t, bt.NoAnswer(raw), bt.PlatformError(raw)),
		probeOnce(t, bt.CardBody(raw), bt.Joined()),
	} {
		for _, c := range br.Conditions {
			assert.NotContains(t, c.Message, "canary")
			assert.NotContains(t, c.Message, "10.1.2.3")
		}
		require.NotEmpty(t, br.Causes)
	}
}

func TestProbe_HugeErrorTextIsCutInTheCause(t *testing.T) {
	huge := strings.Repeat("é", 5<<20) // 10 MiB
	br := probeOnce(t, bt.BackendFailed(huge), bt.PlatformError(huge))
	require.Len(t, br.Causes, 2)
	for _, c := range br.Causes {
		assert.LessOrEqual(t, len(c.Detail), binding.MaxCauseBytes)
		assert.True(t, strings.HasSuffix(c.Detail, "…"))
	}
}

func TestProbe_CountsOnlyForItsUIDAndNotAboveTheBinding(t *testing.T) {
	b := bt.NewBinding("team-a", "chat", bt.Generation(2))
	other := bt.NewBinding("team-a", "chat", bt.UID("u-someone-else"))
	s := world(b)
	s.Probes = []binding.ProbeResult{
		bt.Probe(other, 1, bt.CardOK(), bt.Joined()),
		bt.Probe(b, 3, bt.CardOK(), bt.Joined()),
	}
	r, m := evaluate(t, s)
	br := get(t, m, "team-a/chat")
	assert.Equal(t, string(binding.ReasonPending), cond(t, br, binding.TypeBackendReachable).Reason)
	require.Len(t, r.IgnoredProbes, 2)
	assert.Contains(t, r.IgnoredProbes[0].Why+r.IgnoredProbes[1].Why, "above")
}

func TestProbe_KeptAtTheServedGeneration(t *testing.T) {
	good := bt.NewBinding("team-a", "chat")
	s := world(bt.NewBinding("team-a", "chat", bt.Generation(2), bt.Backend("", "ghost")))
	s.Served.Objects = []binding.Served{served(string(good.UID), 1, "team-a", "chat", good.Spec)}
	s.Probes = []binding.ProbeResult{bt.Probe(good, 1, bt.CardOK(), bt.Joined()), bt.Probe(good, 2, bt.HTTP(404), bt.Joined())}
	r, m := evaluate(t, s)
	c := cond(t, get(t, m, "team-a/chat"), binding.TypeBackendReachable)
	assert.Equal(t, string(binding.ReasonOK), c.Reason)
	assert.EqualValues(t, 1, c.ObservedGeneration)
	require.Len(t, r.IgnoredProbes, 1)
	assert.EqualValues(t, 2, r.IgnoredProbes[0].Generation)
}

func TestProbe_ConditionGenerationIsThePassGeneration(t *testing.T) {
	b := bt.NewBinding("team-a", "chat", bt.Generation(5))
	s := world(b)
	s.Probes = []binding.ProbeResult{bt.Probe(b, 3, bt.HTTP(500), nil), bt.Probe(b, 4, nil, bt.Joined())}
	_, m := evaluate(t, s)
	br := get(t, m, "team-a/chat")
	assert.EqualValues(t, 3, cond(t, br, binding.TypeBackendReachable).ObservedGeneration)
	assert.EqualValues(t, 4, cond(t, br, binding.TypeChannelJoined).ObservedGeneration)
	assert.EqualValues(t, 3, cond(t, br, binding.TypeReady).ObservedGeneration)
}

func TestProbe_PendingAtTheServedGeneration(t *testing.T) {
	_, m := evaluate(t, world(bt.NewBinding("team-a", "chat", bt.Generation(7))))
	c := cond(t, get(t, m, "team-a/chat"), binding.TypeChannelJoined)
	assert.Equal(t, string(binding.ReasonPending), c.Reason)
	assert.EqualValues(t, 7, c.ObservedGeneration)
}
