package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// DefaultCardPath is where an A2A agent publishes its card.
const DefaultCardPath = "/.well-known/agent-card.json"

// AgentBackend is an agent reachable over HTTP, described by its A2A card,
// that Bindings may send chat traffic to.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Namespaced,shortName=akbackend,categories=agentkourier
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="URL",type=string,JSONPath=`.spec.url`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type AgentBackend struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is where the agent lives and who may use it.
	// +kubebuilder:pruning:PreserveUnknownFields
	Spec AgentBackendSpec `json:"spec"`
	// Status is the condition list the broker writes.
	// +kubebuilder:pruning:PreserveUnknownFields
	Status AgentBackendStatus `json:"status,omitempty"`
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

// SecretKeyRef names one key of a Secret in the object's namespace.
type SecretKeyRef struct {
	// Name is the Secret's name.
	Name string `json:"name"`
	// Key is the key inside the Secret.
	Key string `json:"key"`
}

// AgentBackendStatus is the AgentBackend's condition list.
type AgentBackendStatus struct {
	// Conditions, one per type, in the writer's fixed order.
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type"`
}

// AgentBackendList is a list of AgentBackends.
//
// +kubebuilder:object:root=true
type AgentBackendList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	// Items are the AgentBackends.
	Items []AgentBackend `json:"items"`
}
