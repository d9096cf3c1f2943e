package kube

import "k8s.io/apimachinery/pkg/runtime/schema"

// FieldManager is the field manager under which Agent Kourier writes status.
const FieldManager = "agent-kourier"

// The resources of config/crd.
var (
	Bindings        = schema.GroupVersionResource{Group: "agentkourier.dev", Version: "v1alpha1", Resource: "bindings"}
	AgentBackends   = schema.GroupVersionResource{Group: "agentkourier.dev", Version: "v1alpha1", Resource: "agentbackends"}
	ChatConnections = schema.GroupVersionResource{Group: "agentkourier.dev", Version: "v1alpha1", Resource: "chatconnections"}
	PriceBooks      = schema.GroupVersionResource{Group: "finops.stakater.com", Version: "v1alpha1", Resource: "pricebooks"}
	Offerings       = schema.GroupVersionResource{Group: "finops.stakater.com", Version: "v1alpha1", Resource: "offerings"}
	Subscriptions   = schema.GroupVersionResource{Group: "finops.stakater.com", Version: "v1alpha1", Resource: "subscriptions"}
	CostJobs        = schema.GroupVersionResource{Group: "finops.stakater.com", Version: "v1alpha1", Resource: "costjobs"}
	FinOpsProviders = schema.GroupVersionResource{Group: "finops.stakater.com", Version: "v1alpha1", Resource: "finopsproviders"}
)
