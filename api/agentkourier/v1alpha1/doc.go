// Package v1alpha1 holds the API types of the Agent Kourier group
// (agentkourier.dev/v1alpha1): Binding, AgentBackend and ChatConnection,
// each with its List. Every type is a runtime.Object through the deepcopy
// functions controller-gen writes in zz_generated.deepcopy.go; the same
// kubebuilder markers generate the CustomResourceDefinitions in
// config/crd (run hack/generate.sh after changing a type or a marker).
//
// Register the group in a scheme with AddToScheme, as a controller-runtime
// host does for its client and manager:
//
//	scheme := runtime.NewScheme()
//	_ = v1alpha1.AddToScheme(scheme)
//
// The package depends on k8s.io/apimachinery only. The evaluator in
// package binding reads these types.
//
// # Decisions
//
//   - Each kind has its own status type (BindingStatus, AgentBackendStatus,
//     ChatConnectionStatus), all a condition list keyed by type, so a kind
//     can grow a status field without touching the others.
//   - Every spec object keeps unknown fields (x-kubernetes-preserve-unknown-
//     fields), so the API server stores a misspelt field rather than drop
//     it silently; AgentBackend and ChatConnection keep unknown status
//     fields too, as the hand-written CRDs did. The engine does not read
//     unknown fields: these Go types drop them when an object is decoded,
//     so a misspelt field reads as the field being absent (Accepted says
//     what is then missing, such as spec.chat.connectionRef.name:
//     required). The strict manifest reader (manifest, condengine eval)
//     refuses a misspelt field instead and names its path and line.
//     docs/decisions/unknown-spec-fields.md says why.
//   - Every field is optional in the schema unless marked +required: the
//     broker reports a missing field in a condition rather than having the
//     API server refuse the object.
//
// +groupName=agentkourier.dev
package v1alpha1
