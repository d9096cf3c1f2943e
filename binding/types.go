package binding

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Group, version and kinds of the Agent Kourier objects the engine reads.
const (
	Group              = "agentkourier.dev"
	Version            = "v1alpha1"
	APIVersion         = Group + "/" + Version
	KindBinding        = "Binding"
	KindAgentBackend   = "AgentBackend"
	KindChatConnection = "ChatConnection"
)

// Binding connects an agent (an AgentBackend) to one chat channel reached
// through a ChatConnection.
type Binding struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              BindingSpec `json:"spec"`
	Status            Status      `json:"status,omitempty"`
}

// BindingSpec is what a Binding asks for.
type BindingSpec struct {
	Agent AgentRef `json:"agent"`
	Chat  ChatRef  `json:"chat"`
}

// AgentRef says which AgentBackend answers in the channel.
type AgentRef struct {
	BackendRef Ref `json:"backendRef"`
}

// ChatRef says which ChatConnection reaches the channel, and which channel.
type ChatRef struct {
	ConnectionRef Ref    `json:"connectionRef"`
	Channel       string `json:"channel"`
}

// Ref names an object of a known kind. An empty Namespace means the
// referring object's own namespace.
type Ref struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
}

// AgentBackend is an agent reachable over HTTP, described by its A2A card.
type AgentBackend struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              AgentBackendSpec `json:"spec"`
	Status            Status           `json:"status,omitempty"`
}

// AgentBackendSpec is where the agent lives and who may use it.
type AgentBackendSpec struct {
	// URL is the agent's base address; the card is fetched at URL+CardPath.
	URL string `json:"url"`
	// CardPath defaults to DefaultCardPath.
	CardPath string `json:"cardPath,omitempty"`
	// AuthSecretRef names the credential sent with the card fetch.
	AuthSecretRef *SecretKeyRef `json:"authSecretRef,omitempty"`
	// AllowedNamespaces lists the other namespaces whose Bindings may use
	// the backend; "*" allows all. Its own namespace is always allowed.
	AllowedNamespaces []string `json:"allowedNamespaces,omitempty"`
}

// DefaultCardPath is where an A2A agent publishes its card.
const DefaultCardPath = "/.well-known/agent-card.json"

// ChatConnection is a bot's credential on one chat platform, owned by one
// broker.
type ChatConnection struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ChatConnectionSpec `json:"spec"`
	Status            Status             `json:"status,omitempty"`
}

// ChatConnectionSpec is the platform, the bot's token and who may use it.
type ChatConnectionSpec struct {
	// Platform is one of Platforms.
	Platform string `json:"platform"`
	// TokenSecretRef names the bot token.
	TokenSecretRef *SecretKeyRef `json:"tokenSecretRef,omitempty"`
	// Broker is the broker that owns the connection; "" is the default
	// broker.
	Broker string `json:"broker,omitempty"`
	// AllowedNamespaces works as on AgentBackendSpec.
	AllowedNamespaces []string `json:"allowedNamespaces,omitempty"`
}

// Platforms lists the chat platforms a ChatConnection may name. The slice
// is new on each call.
func Platforms() []string { return []string{PlatformSlack} }

// PlatformSlack is the one chat platform the broker speaks today.
const PlatformSlack = "slack"

// SecretKeyRef names one key of a Secret in the object's namespace.
type SecretKeyRef struct {
	Name string `json:"name"`
	Key  string `json:"key"`
}

// Status is the status of all three kinds: a condition list keyed by type.
type Status struct {
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type"`
}
