// Package finops runs the whole FinOps operator model at once: it reads
// manifests into a Snapshot, evaluates every PriceBook, Offering,
// Subscription, CostJob and FinOpsProvider against it in one pass, and
// can apply the result and repeat until nothing more is written.
//
// # One evaluation is one reconcile
//
// Evaluate hands every object to its kind's package (pricebook,
// offering, subscription, costjob, provider) with the snapshot exactly as
// given. Each kind reads the others' status as stored, never as the same
// evaluation decides it: an Offering prices against the book whose
// status.active is already true, a Subscription reads its Offering's
// status.ready as it stands. So a change moves one level per evaluation,
// as it does between the operator's reconcilers, and Settle (evaluate,
// Apply, repeat, bounded) gives the state the cluster comes to rest in.
//
// # Manifests and scenarios
//
// Decode reads what kubectl prints: YAML documents, JSON, or Lists. The
// FinOps kinds become their Go types; any other object is kept by
// identity as an Object, so a Subscription's targetRef can find it. The
// OpenCost pricing ConfigMap, when present, supplies the document
// OpenCost holds; PricingData is the text a host writes there. The
// scenario runner of the "finops" system is finopstest.Run.
//
// # Decisions
//
//   - Decode refuses a second object with the same group, kind,
//     namespace and name, naming both documents: an API server cannot
//     hold both, and evaluating either would be a guess. Binding streams
//     follow the same rule (manifest.Identities).
//   - Objects of group finops.stakater.com are decoded as FinOps kinds;
//     a kind or version of that group the operator does not serve is an
//     error, as kubectl would refuse it. A PriceBook of another group is
//     just an Object.
//   - Decoding is as strict as kubectl apply --validate=strict: a field
//     the kind does not have is an error naming its path and line
//     (metadata, managedFields included, is the ObjectMeta every
//     manifest carries), and so is a field of the wrong type. Errors are
//     *manifest.DocumentError values, documents counted from 1.
//   - In scenarios, the pushed OpenCost document is reported as an
//     outcome of kind ConfigMap named finops-operator-custom-pricing-configs
//     with status {document, changed}; CostJobs and FinOpsProviders are
//     reported with the status they came with, since nothing writes one.
//   - Apply drops an object whose deletion timestamp is set once its
//     last finalizer is gone, as the API server would; a collection run
//     happens once, in the first round of Settle.
package finops
