// Package seed holds the objects of the seed's `kubectl get akbinding -A`
// example, shared by the e2e packages that build it on a real server:
// team-b/support holds channel C1 of team-a's ChatConnection across
// namespaces, team-a/team-a-chat is alone on C2, and team-a/late asks for
// C1 after both.
package seed

import "strings"

// Objects are the namespaces, the ChatConnection and the AgentBackends
// the seed's Bindings refer to, as a user applies them (no status).
const Objects = `
apiVersion: v1
kind: Namespace
metadata: {name: team-a}
---
apiVersion: v1
kind: Namespace
metadata: {name: team-b}
---
apiVersion: agentkourier.dev/v1alpha1
kind: ChatConnection
metadata: {namespace: team-a, name: slack}
spec:
  platform: slack
  tokenSecretRef: {name: slack-bot-token, key: token}
  allowedNamespaces: [team-b]
---
apiVersion: agentkourier.dev/v1alpha1
kind: AgentBackend
metadata: {namespace: team-a, name: echo}
spec: {url: "https://echo.team-a.svc.cluster.local:8443"}
---
apiVersion: agentkourier.dev/v1alpha1
kind: AgentBackend
metadata: {namespace: team-b, name: helpdesk}
spec: {url: "https://helpdesk.team-b.svc.cluster.local"}
`

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

// FinOpsFamily is one Offering with a parent Subscription and a child
// whose parent-loss policy is policy, all in namespace ns (which the
// caller creates).
func FinOpsFamily(ns, policy string) string {
	return strings.NewReplacer("NS", ns, "POLICY", policy).Replace(`
apiVersion: finops.stakater.com/v1alpha1
kind: Offering
metadata: {namespace: NS, name: platform}
spec:
  pricing:
    subscriptionFee: {priceMicros: 40000000, period: "1", tickAlignment: MonthBoundary}
---
apiVersion: finops.stakater.com/v1alpha1
kind: Subscription
metadata: {namespace: NS, name: acme-platform-base}
spec:
  offeringRef: {namespace: NS, name: platform}
---
apiVersion: finops.stakater.com/v1alpha1
kind: Subscription
metadata: {namespace: NS, name: acme-platform-addon}
spec:
  offeringRef: {namespace: NS, name: platform}
  parent: {subscriptionRef: {namespace: NS, name: acme-platform-base}}
  lifecycle: {onParentDeactivate: POLICY}
`)
}
