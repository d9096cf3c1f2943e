package finopstest

import (
	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/internal/crdfiles"
	"github.com/condengine/condengine/offering"
	"github.com/condengine/condengine/pricebook"
	"github.com/condengine/condengine/subscription"
	"github.com/condengine/condengine/system"
)

// Name is the finops system's name, as a scenario's system key spells
// it.
const Name = "finops"

// FieldManager is the field manager of the FinOps operator's status
// writes.
const FieldManager = "finops-operator"

// System returns the finops system as a value, for the tools that take
// any system (system.Runners, the conformance driver, the commands): the
// PriceBooks, Offerings and Subscriptions whose status it computes, and
// the CostJobs and FinOpsProviders it reads; Run and Generate of this
// package; the rules a default run may miss; the check of one manifest
// as Run reads it, the Subscriptions' targets, which may be of any kind
// (References), and what a live cluster lacks: the collection run a
// Subscription's CostsResolved is judged without (Cluster). Each call
// returns a new value.
func System() *system.System {
	var rules []conditions.Rule
	rules = append(rules, pricebook.Rules()...)
	rules = append(rules, offering.Rules()...)
	rules = append(rules, subscription.Rules()...)
	kind := func(kind, plural string) system.Kind {
		return system.Kind{Group: finopsv1.GroupName, Version: finopsv1.Version, Kind: kind, Plural: plural, Namespaced: true}
	}
	books, offerings, subs := kind(finopsv1.KindPriceBook, "pricebooks"), kind(finopsv1.KindOffering, "offerings"), kind(finopsv1.KindSubscription, "subscriptions")
	books.Vocabulary, books.Status = pricebook.Vocabulary, true
	offerings.Vocabulary, offerings.Status, offerings.Finalizer = offering.Vocabulary, true, finopsv1.OfferingFinalizer
	subs.Vocabulary, subs.Status, subs.Finalizer = subscription.Vocabulary, true, finopsv1.SubscriptionFinalizer
	// The operator writes every status it computes at once, from one
	// replica and one route, and asks no host to hold a write back.
	never := map[string]string{}
	for _, k := range []system.Kind{books, offerings, subs} {
		never[system.DecisionSkip(k.Kind, conditions.SkipConfigMapRoute)] = "the FinOps operator has no ConfigMap route that writes no status"
		never[system.DecisionSkip(k.Kind, conditions.SkipNotLeader)] = "the FinOps reconciler models no standby replica: every evaluation is the leader's"
		never[system.DecisionSkip(k.Kind, conditions.SkipHeld)] = "the FinOps reconciler spaces no writes, so it holds none back"
		never[system.DecisionRetryAt(k.Kind)] = "the FinOps reconciler holds no write back, so it retries none"
	}
	never[system.DecisionFinalizer(subs.Kind, conditions.FinalizerAdd)] = "the engine never adds a Subscription's finalizer: it decides only its release (the operator's reference adds it on a first reconcile, which the engine does not model)"
	providers := kind(finopsv1.KindFinOpsProvider, "finopsproviders")
	providers.Namespaced = false
	return &system.System{
		Name:                 Name,
		Doc:                  "the FinOps operator: the status of PriceBooks, Offerings and Subscriptions",
		Kinds:                []system.Kind{books, offerings, subs, kind(finopsv1.KindCostJob, "costjobs"), providers},
		FieldManager:         FieldManager,
		Rules:                rules,
		CRDs:                 crdfiles.Group(finopsv1.GroupName),
		Run:                  Run,
		Generate:             Generate,
		UnreachableDecisions: never,
		Check:                check,
		References:           references,
		Cluster: &system.Cluster{Assumed: map[string]string{
			finopsv1.KindSubscription + "/" + subscription.TypeCostsResolved: "the charge collection run, which a cluster does not show; judged as if none ran now, so the collector's last CostsResolved is kept",
		}},
		Rare: map[string]string{
			"subscription/active/requirement-lost":   "needs an active Subscription whose required Offering loses its last active provider in the family; the generators rarely draw that family (try --until-coverage 1)",
			"subscription/active/parent-deactivated": "needs an active child whose parent ended under the Deactivate policy; about one snapshot in 300 (try --until-coverage 1)",
		},
	}
}
