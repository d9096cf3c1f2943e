package bindingtest

import (
	"strconv"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
)

// Epoch is the creation time builders give when a test does not care.
func Epoch() time.Time { return time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC) }

// meta is the metadata every builder gives: generation 1, created at
// Epoch, uid "u-<namespace>-<name>".
func meta(ns, name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID("u-" + ns + "-" + name), Generation: 1, CreationTimestamp: metav1.NewTime(Epoch())}
}

// BindingOption adjusts a Binding being built.
type BindingOption func(*akv1.Binding)

// NewBinding builds a valid Binding of generation 1, created at Epoch,
// with uid "u-<namespace>-<name>", naming the AgentBackend "echo" and the
// ChatConnection "slack" of its namespace and the channel "C1".
func NewBinding(ns, name string, opts ...BindingOption) akv1.Binding {
	b := akv1.Binding{
		TypeMeta:   metav1.TypeMeta{APIVersion: akv1.APIVersion, Kind: akv1.KindBinding},
		ObjectMeta: meta(ns, name),
		Spec: akv1.BindingSpec{
			Agent: akv1.AgentRef{BackendRef: akv1.Ref{Name: "echo"}},
			Chat:  akv1.ChatRef{ConnectionRef: akv1.Ref{Name: "slack"}, Channel: "C1"},
		},
	}
	for _, o := range opts {
		o(&b)
	}
	return b
}

// UID sets the Binding's uid.
func UID(uid string) BindingOption { return func(b *akv1.Binding) { b.UID = types.UID(uid) } }

// Generation sets metadata.generation.
func Generation(g int64) BindingOption { return func(b *akv1.Binding) { b.Generation = g } }

// Created sets creationTimestamp.
func Created(t time.Time) BindingOption {
	return func(b *akv1.Binding) { b.CreationTimestamp = metav1.NewTime(t) }
}

// Backend sets spec.agent.backendRef; ns may be "".
func Backend(ns, name string) BindingOption {
	return func(b *akv1.Binding) { b.Spec.Agent.BackendRef = akv1.Ref{Namespace: ns, Name: name} }
}

// Connection sets spec.chat.connectionRef; ns may be "".
func Connection(ns, name string) BindingOption {
	return func(b *akv1.Binding) { b.Spec.Chat.ConnectionRef = akv1.Ref{Namespace: ns, Name: name} }
}

// Channel sets spec.chat.channel.
func Channel(ch string) BindingOption { return func(b *akv1.Binding) { b.Spec.Chat.Channel = ch } }

// Conditions sets status.conditions.
func Conditions(cs ...metav1.Condition) BindingOption {
	return func(b *akv1.Binding) { b.Status.Conditions = cs }
}

// NewBackend builds a valid AgentBackend of generation 1 with uid
// "u-<namespace>-<name>"; allowed become its allowedNamespaces.
func NewBackend(ns, name string, allowed ...string) akv1.AgentBackend {
	return akv1.AgentBackend{
		TypeMeta:   metav1.TypeMeta{APIVersion: akv1.APIVersion, Kind: akv1.KindAgentBackend},
		ObjectMeta: meta(ns, name),
		Spec:       akv1.AgentBackendSpec{URL: "https://" + name + "." + ns + ".svc:8443", AllowedNamespaces: allowed},
	}
}

// NewConnection builds a valid Slack ChatConnection of generation 1 for
// the default broker, with uid "u-<namespace>-<name>"; allowed become its
// allowedNamespaces.
func NewConnection(ns, name string, allowed ...string) akv1.ChatConnection {
	return akv1.ChatConnection{
		TypeMeta:   metav1.TypeMeta{APIVersion: akv1.APIVersion, Kind: akv1.KindChatConnection},
		ObjectMeta: meta(ns, name),
		Spec: akv1.ChatConnectionSpec{Platform: akv1.PlatformSlack,
			TokenSecretRef: &akv1.SecretKeyRef{Name: name + "-token", Key: "token"}, AllowedNamespaces: allowed},
	}
}

// Probe builds the probe result of a pass over b that began at
// generation gen. Either observation may be nil (not finished).
func Probe(b akv1.Binding, gen int64, backend *binding.BackendObservation, channel *binding.ChannelObservation) binding.ProbeResult {
	return binding.ProbeResult{UID: b.UID, Namespace: b.Namespace, Name: b.Name, Generation: gen, Backend: backend, Channel: channel}
}

// Card is a usable A2A 1.0 card.
func Card() *binding.AgentCard {
	return &binding.AgentCard{Name: "echo", Version: "1.0",
		SupportedInterfaces: []binding.AgentInterface{{URL: "https://echo.example/a2a", ProtocolBinding: "JSONRPC"}}}
}

// CardOK is a 200 answer carrying a usable, already parsed card.
func CardOK() *binding.BackendObservation {
	return &binding.BackendObservation{HTTPStatus: 200, Card: Card()}
}

// CardBody is a 200 answer with the raw body given.
func CardBody(body string) *binding.BackendObservation {
	return &binding.BackendObservation{HTTPStatus: 200, Body: []byte(body)}
}

// HTTP is an answer with the given status and no body.
func HTTP(code int) *binding.BackendObservation { return &binding.BackendObservation{HTTPStatus: code} }

// NoAnswer is a fetch that got no answer; kind is one of the
// binding.NetError values.
func NoAnswer(kind string) *binding.BackendObservation {
	return &binding.BackendObservation{Error: kind}
}

// BackendTimeout is a fetch still running at the prober's limit.
func BackendTimeout() *binding.BackendObservation { return &binding.BackendObservation{Timeout: true} }

// BackendFailed is a fetch the prober could not make.
func BackendFailed(why string) *binding.BackendObservation {
	return &binding.BackendObservation{Failed: why}
}

// Joined is the platform saying the bot is in the open channel.
func Joined() *binding.ChannelObservation {
	return &binding.ChannelObservation{OK: true, IsMember: true}
}

// ChannelState is an ok answer with the given membership and archive flag.
func ChannelState(member, archived bool) *binding.ChannelObservation {
	return &binding.ChannelObservation{OK: true, IsMember: member, IsArchived: archived}
}

// PlatformError is the platform's error code.
func PlatformError(code string) *binding.ChannelObservation {
	return &binding.ChannelObservation{Error: code}
}

// PlatformHTTP is an answer with an HTTP status and no body.
func PlatformHTTP(code int) *binding.ChannelObservation {
	return &binding.ChannelObservation{HTTPStatus: code}
}

// ChannelTimeout is a look still running at the prober's limit.
func ChannelTimeout() *binding.ChannelObservation { return &binding.ChannelObservation{Timeout: true} }

// ChannelFailed is a look the prober could not make.
func ChannelFailed(why string) *binding.ChannelObservation {
	return &binding.ChannelObservation{Failed: why}
}

// Healthy builds a snapshot at now of one namespace with a backend, a
// connection and n healthy Bindings on channels C0..C(n-1), each with
// finished successful probes.
func Healthy(now time.Time, ns string, n int) binding.Snapshot {
	s := binding.Snapshot{
		Now:         now,
		Broker:      binding.Broker{Leader: true, ProberListed: true, StartedAt: now.Add(-time.Hour), ConfigSource: binding.ConfigSourceCRDs},
		Backends:    []akv1.AgentBackend{NewBackend(ns, "echo")},
		Connections: []akv1.ChatConnection{NewConnection(ns, "slack")},
	}
	for i := range n {
		b := NewBinding(ns, "chat-"+strconv.Itoa(i), Channel("C"+strconv.Itoa(i)))
		s.Bindings = append(s.Bindings, b)
		s.Probes = append(s.Probes, Probe(b, 1, CardOK(), Joined()))
	}
	return s
}
