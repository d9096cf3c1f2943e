// Package seed holds the objects of the seed's `kubectl get akbinding -A`
// example, shared by the e2e packages that build it on a real server:
// team-b/support holds channel C1 of team-a's ChatConnection across
// namespaces, team-a/team-a-chat is alone on C2, and team-a/late asks for
// C1 after both.
package seed

import (
	_ "embed"
	"strings"
)

// Objects are the namespaces, the ChatConnection and the AgentBackends
// the seed's Bindings refer to, as a user applies them (no status).
//
//go:embed objects.yaml
var Objects string

// BindingYAML is the manifest of a Binding on the ChatConnection "slack"
// (in connNS, or the Binding's own namespace when connNS is empty).
func BindingYAML(ns, name, backend, connNS, channel string) string {
	conn := "{name: slack}"
	if connNS != "" {
		conn = "{name: slack, namespace: " + connNS + "}"
	}
	return "apiVersion: agentkourier.dev/v1alpha1\nkind: Binding\nmetadata: {namespace: " + ns + ", name: " + name + "}\n" +
		"spec:\n  agent: {backendRef: {name: " + backend + "}}\n  chat: {connectionRef: " + conn + ", channel: " + channel + "}\n"
}

// Rows is the seed's table once every Binding has its status, without
// the AGE column, in kubectl's order.
var Rows = [][]string{
	{"team-a", "late", "False", "Accepted:ChannelConflict", "C1"},
	{"team-a", "team-a-chat", "True", "OK", "C2"},
	{"team-b", "support", "True", "OK", "C1"},
}

//go:embed finops-family.yaml
var finopsFamily string

// FinOpsFamily is one Offering with a parent Subscription and a child
// whose parent-loss policy is policy, all in namespace ns (which the
// caller creates).
func FinOpsFamily(ns, policy string) string {
	return strings.NewReplacer("NS", ns, "POLICY", policy).Replace(finopsFamily)
}
