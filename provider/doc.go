// Package provider models the FinOps operator's FinOpsProvider: the
// cluster-wide singleton that tells OpenCost which cost provider to use.
//
// A FinOpsProvider has no conditions and its status is never written, so
// there is nothing to evaluate into a status. The package offers the two
// things a host or a test needs instead: Validate, the admission rules
// with their exact rejection messages, and Evaluate, the plan one
// reconcile carries out against OpenCost.
//
// # Decisions
//
//  1. An empty spec fails both option rules and both messages are
//     returned, as the operator's documentation records. (The CRD kept in
//     config/crd words the second rule as "at most one", so an API server
//     running it reports only the first message for an empty spec.)
//  2. With several blocks set (refused at admission, but possible in a
//     snapshot) the first matching branch in the order aws, gcp, azure,
//     onprem is taken.
//  3. pricingModelSource is compared exactly: "Pricebook" and nothing
//     else turns custom pricing on for a cloud branch; any other value
//     leaves the switch alone.
//  4. The cloud integration secret travels only in Plan; no error or
//     message of this package contains it.
package provider
