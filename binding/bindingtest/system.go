package bindingtest

import (
	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/internal/crdfiles"
	"github.com/condengine/condengine/system"
)

// Name is the binding system's name, as a scenario's system key spells
// it.
const Name = "binding"

// FieldManager is the field manager of the Agent Kourier broker's status
// writes.
const FieldManager = "agent-kourier"

// System returns the binding system as a value, for the tools that take
// any system (system.Runners, the conformance driver, the commands): the
// Binding, whose status and conditions it computes, and the
// AgentBackends and ChatConnections it reads; Run and Generate of this
// package; the rule no snapshot can reach; its own reading of large
// inputs (Stream: typed, compact, written as decided, with the
// `kubectl get akbinding` table); and its evaluation from a live
// cluster, which holds no probe results (Cluster: three guesses of them,
// each Binding as the broker of its ChatConnection answers). Each call
// returns a new value.
func System() *system.System {
	return &system.System{
		Name: Name,
		Doc:  "Agent Kourier: the status conditions of Bindings",
		Kinds: []system.Kind{
			{Group: akv1.GroupName, Version: akv1.Version, Kind: akv1.KindBinding, Plural: "bindings", ShortNames: []string{"akbinding"},
				Namespaced: true, Vocabulary: binding.Vocabulary, Status: true},
			{Group: akv1.GroupName, Version: akv1.Version, Kind: akv1.KindAgentBackend, Plural: "agentbackends", ShortNames: []string{"akbackend"},
				Namespaced: true},
			{Group: akv1.GroupName, Version: akv1.Version, Kind: akv1.KindChatConnection, Plural: "chatconnections", ShortNames: []string{"akconnection"},
				Namespaced: true},
		},
		FieldManager: FieldManager,
		Rules:        binding.Rules(),
		CRDs:         crdfiles.Group(akv1.GroupName),
		Run:          Run,
		Generate:     Generate,
		Stream:       newStream,
		Cluster:      cluster(),
		Unreachable: map[string]string{
			"binding/accepted/rejected": "every finding the broker makes has a named reason; the rule is the vocabulary's fallback",
		},
	}
}
