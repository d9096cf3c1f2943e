package main

import "os"

// The demo's own scenario files hold their expectations.
func ExampleRun_check() {
	Run([]string{"check", "demo"}, nil, os.Stdout, os.Stderr)
	// Output:
	// 2 passed, 0 failed
}

func ExampleRun_eval() {
	const in = `apiVersion: agentkourier.dev/v1alpha1
kind: Binding
metadata: {namespace: team-a, name: orphan, uid: u1, generation: 1, creationTimestamp: "2026-11-30T09:00:00Z"}
spec:
  agent: {backendRef: {name: echo}}
  chat: {connectionRef: {name: slack}, channel: C1}
`
	Run([]string{"eval", "-now", "2026-11-30T10:00:00Z"}, stringsReader(in), os.Stdout, os.Stderr)
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
