package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// PlatformSlack is the one chat platform the broker speaks today.
const PlatformSlack = "slack"

// ChatConnection is a bot's credential on one chat platform, owned by one
// broker.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Namespaced,shortName=akconnection,categories=agentkourier
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Platform",type=string,JSONPath=`.spec.platform`
// +kubebuilder:printcolumn:name="Broker",type=string,JSONPath=`.spec.broker`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type ChatConnection struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the platform, the bot's token and who may use it.
	// +kubebuilder:pruning:PreserveUnknownFields
	Spec ChatConnectionSpec `json:"spec"`
	// Status is the condition list the broker writes.
	// +kubebuilder:pruning:PreserveUnknownFields
	Status ChatConnectionStatus `json:"status,omitempty"`
}

// ChatConnectionSpec is the platform, the bot's token and who may use it.
type ChatConnectionSpec struct {
	// Platform is PlatformSlack; the broker refuses any other value.
	Platform string `json:"platform"`
	// TokenSecretRef names the bot token.
	TokenSecretRef *SecretKeyRef `json:"tokenSecretRef,omitempty"`
	// Broker is the broker that owns the connection; "" is the default
	// broker.
	Broker string `json:"broker,omitempty"`
	// AllowedNamespaces works as on AgentBackendSpec.
	AllowedNamespaces []string `json:"allowedNamespaces,omitempty"`
}

// ChatConnectionStatus is the ChatConnection's condition list.
type ChatConnectionStatus struct {
	// Conditions, one per type, in the writer's fixed order.
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type"`
}

// ChatConnectionList is a list of ChatConnections.
//
// +kubebuilder:object:root=true
type ChatConnectionList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	// Items are the ChatConnections.
	Items []ChatConnection `json:"items"`
}
