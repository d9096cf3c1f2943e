package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Binding connects an agent (an AgentBackend) to one chat channel reached
// through a ChatConnection.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Namespaced,shortName=akbinding,categories=agentkourier
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="Reason",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].reason`
// +kubebuilder:printcolumn:name="Channel",type=string,JSONPath=`.spec.chat.channel`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type Binding struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is what the Binding asks for. Fields beyond the declared ones
	// are kept, so that the broker, whose checks are stricter than this
	// schema, can name them in its Accepted message.
	// +kubebuilder:pruning:PreserveUnknownFields
	Spec BindingSpec `json:"spec"`
	// Status is written only by the leader of the broker that serves the
	// Binding, with server-side apply under the field manager
	// agent-kourier.
	Status BindingStatus `json:"status,omitempty"`
}

// BindingSpec is what a Binding asks for.
type BindingSpec struct {
	// Agent names the AgentBackend that answers in the channel.
	// +kubebuilder:pruning:PreserveUnknownFields
	Agent AgentRef `json:"agent"`
	// Chat names the ChatConnection and the channel.
	// +kubebuilder:pruning:PreserveUnknownFields
	Chat ChatRef `json:"chat"`
}

// AgentRef says which AgentBackend answers in the channel.
type AgentRef struct {
	// BackendRef names the AgentBackend.
	BackendRef Ref `json:"backendRef"`
}

// ChatRef says which ChatConnection reaches the channel, and which channel.
type ChatRef struct {
	// ConnectionRef names the ChatConnection.
	ConnectionRef Ref `json:"connectionRef"`
	// Channel is the platform's channel ID.
	Channel string `json:"channel"`
}

// Ref names an object of a known kind. An empty Namespace means the
// referring object's own namespace.
type Ref struct {
	// Name is the object's name.
	// +required
	Name string `json:"name"`
	// Namespace is the object's namespace; empty means the referrer's.
	Namespace string `json:"namespace,omitempty"`
}

// BindingStatus is the Binding's condition list.
type BindingStatus struct {
	// Conditions, one per type, in the writer's fixed order.
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type"`
}

// BindingList is a list of Bindings.
//
// +kubebuilder:object:root=true
type BindingList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	// Items are the Bindings.
	Items []Binding `json:"items"`
}
