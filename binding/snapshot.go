package binding

import (
	"time"

	"k8s.io/apimachinery/pkg/types"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
)

// Snapshot is everything one evaluation reads: the objects as the broker's
// informers hold them (status included), the broker's own state, its
// memory of good generations, the last finished probes and the time.
// Evaluate does not modify it; the Result may share spec values with it.
type Snapshot struct {
	// Now is the instant of the evaluation; it only stamps transitions.
	Now time.Time
	// Broker is the state of the broker doing the evaluation.
	Broker Broker
	// Bindings, Backends and Connections are the three kinds, in any order.
	Bindings    []akv1.Binding
	Backends    []akv1.AgentBackend
	Connections []akv1.ChatConnection
	// Served is the memory of good generations before this evaluation.
	Served ServedMemory
	// Probes are the finished probe observations, in any order.
	Probes []ProbeResult
}

// ConfigSource is where the broker reads its configuration from.
type ConfigSource string

// The config routes. The zero value reads as ConfigSourceCRDs.
const (
	ConfigSourceCRDs      ConfigSource = "crds"
	ConfigSourceConfigMap ConfigSource = "configmap"
)

// Broker is the state of the broker that evaluates.
type Broker struct {
	// Name is the broker's name; "" is the default broker.
	Name string
	// Leader reports that this replica holds the lease (always true with
	// SQLite, where there is no election).
	Leader bool
	// StartedAt is when this broker process started. Evaluate does not
	// read it: it is the host's record, from which a host without a
	// prober listing of its own derives ProberListed.
	StartedAt time.Time
	// ConfigSource is the config route; on ConfigSourceConfigMap nothing is
	// written.
	ConfigSource ConfigSource
	// ProberListed reports that the prober has listed the Bindings since
	// the broker started (about 15 s after start): set it when that
	// listing ends, or once policy.Limits.StartupList has passed since
	// StartedAt.
	ProberListed bool
}

// ServedMemory is the broker's record of the last good generation of each
// object, keyed by UID. Evaluate reads one and returns the next.
type ServedMemory struct {
	// Objects holds one entry per object. Evaluate returns it sorted by
	// kind, namespace, name and UID.
	Objects []Served `json:"served,omitempty"`
}

// Served is the last good generation of one object and its spec then.
// Exactly one of the spec pointers is set, the one of Kind.
type Served struct {
	Kind       string                   `json:"kind"`
	Namespace  string                   `json:"namespace"`
	Name       string                   `json:"name"`
	UID        types.UID                `json:"uid"`
	Generation int64                    `json:"generation"`
	Binding    *akv1.BindingSpec        `json:"binding,omitempty"`
	Backend    *akv1.AgentBackendSpec   `json:"backend,omitempty"`
	Connection *akv1.ChatConnectionSpec `json:"connection,omitempty"`
}

// ProbeResult is what one finished probe pass saw for one Binding. The
// two probes finish independently: a nil observation has not finished.
type ProbeResult struct {
	// UID is the Binding the pass was made for; a result counts only for
	// that object.
	UID types.UID
	// Namespace and Name are for the log only; matching is by UID.
	Namespace, Name string
	// Generation is the Binding generation the pass began with.
	Generation int64
	// Backend is the agent card fetch.
	Backend *BackendObservation
	// Channel is the chat platform's answer about the channel.
	Channel *ChannelObservation
}

// BackendObservation is the raw outcome of one agent card fetch. When more
// than one signal is set, the first matching row of the decisions' table
// decides: HTTPStatus, then Error, then Timeout, then Failed.
type BackendObservation struct {
	// HTTPStatus is the answer's status code.
	HTTPStatus int
	// Body is the body read (the prober reads at most MaxCardBytes+1).
	Body []byte
	// BodyBytes is the body's full size when larger than len(Body).
	BodyBytes int64
	// Card is the body already parsed by ParseCard; when set, Body is not
	// parsed again.
	Card *AgentCard
	// Error is the kind of failure when no answer came: one of the
	// NetError values; any other non-empty value also means no answer.
	Error string
	// RetryAfter is the wait, in seconds, a rate limit asked for.
	RetryAfter int
	// Timeout reports the fetch still ran at the prober's limit.
	Timeout bool
	// Failed says why the prober could not make the fetch at all.
	Failed string
}

// Kinds of network failure a BackendObservation may carry.
const (
	NetErrorRefused = "refused"
	NetErrorDNS     = "dns"
	NetErrorTLS     = "tls"
	NetErrorReset   = "reset"
)

// ChannelObservation is the raw outcome of one look at the channel on the
// chat platform. When more than one signal is set, the first matching row
// of the decisions' table decides: the answer's state and error
// codes in table order (an HTTP 429 at the RateLimited row), then another
// HTTP status than 200, then Timeout, then Failed.
type ChannelObservation struct {
	// HTTPStatus is the HTTP status of the platform's answer; 0 means 200.
	HTTPStatus int
	// OK is the platform's ok flag.
	OK bool
	// IsMember and IsArchived are the channel's state as answered.
	IsMember   bool
	IsArchived bool
	// Error is the platform's error code.
	Error string
	// RetryAfter is the wait, in seconds, a rate limit asked for.
	RetryAfter int
	// Timeout reports the call still ran at the prober's limit.
	Timeout bool
	// Failed says why the prober could not make the call at all.
	Failed string
}
