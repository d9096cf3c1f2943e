package binding

import (
	"github.com/condengine/condengine/api/agentkourier/v1alpha1"
)

// The API types of the Agent Kourier group are declared in
// api/agentkourier/v1alpha1; the names below are aliases kept so that
// existing callers compile unchanged. New code should import v1alpha1.

// Group, version and kinds of the Agent Kourier objects the engine reads.
const (
	Group              = v1alpha1.GroupName
	Version            = v1alpha1.Version
	APIVersion         = v1alpha1.APIVersion
	KindBinding        = v1alpha1.KindBinding
	KindAgentBackend   = v1alpha1.KindAgentBackend
	KindChatConnection = v1alpha1.KindChatConnection
)

// Aliases of the v1alpha1 types.
type (
	// Binding is v1alpha1.Binding.
	Binding = v1alpha1.Binding
	// BindingSpec is v1alpha1.BindingSpec.
	BindingSpec = v1alpha1.BindingSpec
	// AgentRef is v1alpha1.AgentRef.
	AgentRef = v1alpha1.AgentRef
	// ChatRef is v1alpha1.ChatRef.
	ChatRef = v1alpha1.ChatRef
	// Ref is v1alpha1.Ref.
	Ref = v1alpha1.Ref
	// AgentBackend is v1alpha1.AgentBackend.
	AgentBackend = v1alpha1.AgentBackend
	// AgentBackendSpec is v1alpha1.AgentBackendSpec.
	AgentBackendSpec = v1alpha1.AgentBackendSpec
	// ChatConnection is v1alpha1.ChatConnection.
	ChatConnection = v1alpha1.ChatConnection
	// ChatConnectionSpec is v1alpha1.ChatConnectionSpec.
	ChatConnectionSpec = v1alpha1.ChatConnectionSpec
	// SecretKeyRef is v1alpha1.SecretKeyRef.
	SecretKeyRef = v1alpha1.SecretKeyRef
	// Status is v1alpha1.BindingStatus; AgentBackend and ChatConnection
	// have their own status types of the same shape.
	Status = v1alpha1.BindingStatus
)

// DefaultCardPath is where an A2A agent publishes its card.
const DefaultCardPath = v1alpha1.DefaultCardPath

// PlatformSlack is the one chat platform the broker speaks today.
const PlatformSlack = v1alpha1.PlatformSlack

// Platforms lists the chat platforms a ChatConnection may name. The slice
// is new on each call.
func Platforms() []string { return []string{v1alpha1.PlatformSlack} }
