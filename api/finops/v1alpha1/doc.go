// Package v1alpha1 holds the API types of the FinOps group
// (finops.stakater.com/v1alpha1): PriceBook, Offering, Subscription,
// CostJob and FinOpsProvider, each with its List. Every type is a
// runtime.Object through the deepcopy functions controller-gen writes in
// zz_generated.deepcopy.go; the same kubebuilder markers generate the
// CustomResourceDefinitions in config/crd (run hack/generate.sh after
// changing a type or a marker).
//
// Register the group in a scheme with AddToScheme:
//
//	scheme := runtime.NewScheme()
//	_ = v1alpha1.AddToScheme(scheme)
//
// The package depends on k8s.io/apimachinery only. The evaluators in
// packages pricebook, offering, subscription, costjob, provider and
// billing read these types.
//
// # Decisions
//
//   - Offering and Subscription references share one Reference type:
//     both name a namespaced object whose namespace is required.
//   - The cost buckets of status.costs (CostBucket, CostMetric,
//     Granularity) live here, not in billing, so that the API package
//     depends on nothing but apimachinery; billing refers to them.
//   - Every spec object keeps unknown fields, so the engine's own checks
//     see and report them; every field is optional in the schema unless
//     marked +required, and the schema validates only what the former
//     hand-written CRDs validated (PriceBook currency pattern and
//     valuation mode, reference names, the FinOpsProvider singleton and
//     one-option rules).
//   - The Offering's spec is declared without fields, as before: the
//     engine's rules for a requirement with no name or no namespace must
//     stay reachable, and Reference requires both.
//   - FinOpsProvider's status is declared without fields: nothing ever
//     writes it, so its Go fields are not promised to a user.
//   - CostJob's spec.resources is kept raw (a core/v1
//     ResourceRequirements) and declared as an object with unknown fields,
//     so this package needs no k8s.io/api.
//
// +groupName=finops.stakater.com
package v1alpha1
