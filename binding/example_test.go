package binding_test

import (
	"fmt"
	"time"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/bindingtest"
)

// A broker evaluates two Bindings that want the same channel: the older
// one holds it and, once its probes have finished, is Ready; the younger
// one reads ChannelConflict and is not served.
func ExampleEvaluate() {
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	first := bindingtest.NewBinding("team-a", "first")
	late := bindingtest.NewBinding("team-a", "late", bindingtest.Created(bindingtest.Epoch().Add(time.Hour)))

	r, err := binding.Evaluate(binding.Snapshot{
		Now:         now,
		Broker:      binding.Broker{Leader: true, ProberListed: true, ConfigSource: binding.ConfigSourceCRDs},
		Bindings:    []akv1.Binding{late, first},
		Backends:    []akv1.AgentBackend{bindingtest.NewBackend("team-a", "echo")},
		Connections: []akv1.ChatConnection{bindingtest.NewConnection("team-a", "slack")},
		Probes:      []binding.ProbeResult{bindingtest.Probe(first, 1, bindingtest.CardOK(), bindingtest.Joined())},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, br := range r.Bindings {
		fmt.Printf("%s %s/%s write=%v served=%v owned=%d\n", br.Kind, br.Namespace, br.Name, br.Write, br.Served, len(br.Owned))
		for _, c := range br.Conditions {
			fmt.Printf("  %s=%s %s %q\n", c.Type, c.Status, c.Reason, c.Message)
		}
	}
	// Output:
	// Binding team-a/first write=true served=true owned=4
	//   Accepted=True OK ""
	//   BackendReachable=True OK ""
	//   ChannelJoined=True OK ""
	//   Ready=True OK ""
	// Binding team-a/late write=true served=false owned=2
	//   Accepted=False ChannelConflict "spec.chat.channel: channel C1 is already bound by Binding team-a/first"
	//   Ready=False Accepted:ChannelConflict "spec.chat.channel: channel C1 is already bound by Binding team-a/first"
}

// On the ConfigMap route a Binding file may not carry a status.
func ExampleValidateConfigMapFile() {
	err := binding.ValidateConfigMapFile([]byte(`apiVersion: agentkourier.dev/v1alpha1
kind: Binding
metadata: {namespace: team-a, name: chat}
spec: {agent: {backendRef: {name: echo}}, chat: {connectionRef: {name: slack}, channel: C1}}
status: {conditions: []}
`))
	fmt.Println(err)
	// Output:
	// document 1 (Binding team-a/chat), line 5: status: a file may not set it, remove it
}
