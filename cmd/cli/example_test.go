package cli_test

import (
	"os"
	"strings"

	"github.com/condengine/condengine/cmd/cli"
	"github.com/condengine/condengine/conformance"
)

// The command for the seed systems checks scenario files; an author's
// command is the same value with their own systems and name (the whole
// main of it is cli.Main("mydb", mydbtest.System())).
func ExampleCommand_Run() {
	c := &cli.Command{Name: "condengine", Systems: conformance.SeedSystems()}
	c.Run([]string{"check", "../condengine/demo"}, nil, os.Stdout, os.Stderr)
	// Output:
	// 2 passed, 0 failed
}

// eval computes the status of the objects of a manifest stream.
func ExampleCommand_Run_eval() {
	const in = `apiVersion: agentkourier.dev/v1alpha1
kind: Binding
metadata: {namespace: team-a, name: orphan, uid: u1, generation: 1, creationTimestamp: "2026-11-30T09:00:00Z"}
spec:
  agent: {backendRef: {name: echo}}
  chat: {connectionRef: {name: slack}, channel: C1}
`
	c := &cli.Command{Name: "condengine", Systems: conformance.SeedSystems()}
	c.Run([]string{"eval", "-now", "2026-11-30T10:00:00Z"}, strings.NewReader(in), os.Stdout, os.Stderr)
	// Output:
	// $ kubectl get akbinding -A
	// NAMESPACE   NAME     READY   REASON                     CHANNEL   AGE
	// team-a      orphan   False   Accepted:BackendNotFound   C1        60m
	//
	// Conditions:
	//
	// Binding team-a/orphan
	//   TYPE       STATUS   REASON                     GEN   LAST TRANSITION        MESSAGE
	//   Accepted   False    BackendNotFound            1     2026-11-30T10:00:00Z   spec.agent.backendRef: AgentBackend team-a/echo not found; spec.chat.connectionRef: ChatConnection team-a/slack not found
	//   Ready      False    Accepted:BackendNotFound   1     2026-11-30T10:00:00Z   spec.agent.backendRef: AgentBackend team-a/echo not found; spec.chat.connectionRef: ChatConnection team-a/slack not found
}
