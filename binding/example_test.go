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

// A host that writes each status as it is decided, and keeps none of
// the outcomes, takes them from EvaluateEach with the position of their
// Binding in the snapshot.
func ExampleEvaluateEach() {
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	bindings := []akv1.Binding{
		bindingtest.NewBinding("team-b", "chat", bindingtest.Channel("C2")),
		bindingtest.NewBinding("team-a", "chat"),
	}
	_, err := binding.EvaluateEach(binding.Snapshot{
		Now:         now,
		Broker:      binding.Broker{Leader: true, ProberListed: true},
		Bindings:    bindings,
		Backends:    []akv1.AgentBackend{bindingtest.NewBackend("team-a", "echo"), bindingtest.NewBackend("team-b", "echo")},
		Connections: []akv1.ChatConnection{bindingtest.NewConnection("team-a", "slack"), bindingtest.NewConnection("team-b", "slack")},
	}, func(i int, o binding.Outcome) {
		ready := o.Conditions[len(o.Conditions)-1]
		fmt.Printf("bindings[%d] %s/%s write=%v %s=%s %s\n", i, o.Namespace, o.Name, o.Write, ready.Type, ready.Status, ready.Reason)
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// bindings[1] team-a/chat write=true Ready=Unknown BackendReachable:Pending
	// bindings[0] team-b/chat write=true Ready=Unknown BackendReachable:Pending
}

// A host that evaluates its snapshot again and again keeps one
// ResultBuffer and evaluates into it; it carries the memory over and
// applies the writes between passes as it would with Evaluate.
func ExampleEvaluateInto() {
	s := binding.Snapshot{
		Now:         time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC),
		Broker:      binding.Broker{Leader: true, ProberListed: true},
		Bindings:    []akv1.Binding{bindingtest.NewBinding("team-a", "chat")},
		Backends:    []akv1.AgentBackend{bindingtest.NewBackend("team-a", "echo")},
		Connections: []akv1.ChatConnection{bindingtest.NewConnection("team-a", "slack")},
	}
	var buf binding.ResultBuffer
	for pass := range 2 {
		if err := binding.EvaluateInto(&buf, s); err != nil {
			fmt.Println(err)
			return
		}
		o := buf.Bindings[0]
		fmt.Printf("pass %d: %s/%s write=%v\n", pass, o.Namespace, o.Name, o.Write)
		binding.ApplyInPlace(s.Bindings, buf.Result)
		s.Served = buf.Memory
		s.Now = s.Now.Add(time.Minute)
	}
	// Output:
	// pass 0: team-a/chat write=true
	// pass 1: team-a/chat write=false
}
