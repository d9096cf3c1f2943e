// +kubebuilder:object:generate=true
// +kubebuilder:validation:Optional

package v1alpha1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/condengine/condengine/api/internal/register"
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
	SchemeBuilder = register.Builder(GroupVersion,
		&Binding{}, &BindingList{},
		&AgentBackend{}, &AgentBackendList{},
		&ChatConnection{}, &ChatConnectionList{},
	)

	// AddToScheme adds every kind of this package, with its List, to a
	// scheme, together with the meta/v1 types a client needs beside them.
	AddToScheme = SchemeBuilder.AddToScheme
)
