// +kubebuilder:object:generate=true
// +kubebuilder:validation:Optional

package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Group, version and kinds of the Agent Kourier API. Every other package
// of the module refers to these; none spells them again.
const (
	// GroupName is the API group of the three kinds.
	GroupName = "agentkourier.dev"
	// Version is the one served version.
	Version = "v1alpha1"
	// APIVersion is what a manifest's apiVersion field reads.
	APIVersion = GroupName + "/" + Version

	KindBinding        = "Binding"
	KindAgentBackend   = "AgentBackend"
	KindChatConnection = "ChatConnection"
)

var (
	// GroupVersion is GroupName and Version as the scheme knows them.
	GroupVersion = schema.GroupVersion{Group: GroupName, Version: Version}

	// SchemeBuilder registers the kinds of this group and version.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)

	// AddToScheme adds every kind of this package, with its List, to a
	// scheme, together with the meta/v1 types a client needs beside them.
	AddToScheme = SchemeBuilder.AddToScheme
)

// addKnownTypes is the one registration SchemeBuilder runs.
func addKnownTypes(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion,
		&Binding{}, &BindingList{},
		&AgentBackend{}, &AgentBackendList{},
		&ChatConnection{}, &ChatConnectionList{},
	)
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
