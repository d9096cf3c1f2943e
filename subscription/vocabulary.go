package subscription

import (
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/billing"
	"github.com/condengine/condengine/conditions"
)

// A Subscription's rules are declared beside the code that decides them,
// each once, with the reasons it writes and their text: the gates'
// (gates.go), the delete and deactivated branches' (outcome.go) and
// CostsResolved's (collection.go). This file only puts them together; the
// vocabulary, the rule table (Rules, docs/rules.md, condengine explain
// -rules, condengine vocab) and each type's reason order are read from
// them. Adding a reason is a constant, a write in a rule (with an Example
// input that makes it fire) and the code that returns its verdict, in
// one file, then `go generate ./...` for the docs and the rule's corpus
// scenario.

// Condition types of a Subscription, in the order they are written.
const (
	TypeReady         = conditions.TypeReady
	TypeActive        = "Active"
	TypeDeleting      = "Deleting"
	TypeCostsResolved = "CostsResolved"
)

// Reason is the reason of a Subscription's condition; each constant says
// the condition it goes with.
type Reason string

// HazardNeverActivated warns that a Subscription deleted before it ever
// activated keeps its finalizer: collection runs select Subscriptions by
// status.activatedAt, so no run visits it. It is shown beside
// billing.HazardSettlementGate wherever the Deleting condition is
// described.
const HazardNeverActivated = "Hazard: a Subscription deleted before it ever activated is skipped by every collection run, " +
	"so no run releases its finalizer; once nothing is owed, remove the finalizer by hand."

const (
	cTrue  = metav1.ConditionTrue
	cFalse = metav1.ConditionFalse
)

// write is one (status, reason) a rule writes, with its fixed message
// ("" when the message is composed per object) and its text.
func write(st metav1.ConditionStatus, r Reason, message, meaning, action string) conditions.Reason {
	return conditions.Reason{Status: st, Reason: string(r), Message: message, Meaning: meaning, Action: action}
}

// end is a False write the Subscription never leaves.
func end(r Reason, message, meaning, action string) conditions.Reason {
	w := write(cFalse, r, message, meaning, action)
	w.Terminal = true
	return w
}

// rule is a rule deciding the condition typ.
func rule(typ, id, sentence string, writes ...conditions.Reason) conditions.Rule {
	return conditions.Rule{ID: id, Kind: finopsv1.KindSubscription, Types: []string{typ}, Sentence: sentence, Writes: writes}
}

// rules is the Subscription's rule table, in the order the docs list it.
var rules = slices.Concat(gateRules[:], lifecycleRules[:], costsRules[:])

// condTypes are the Subscription's condition types; their reasons are read
// from rules.
var condTypes = []conditions.Type{
	{Name: TypeReady, Required: true,
		Meaning: "Whether every activation gate passes now; after deactivation always False."},
	{Name: TypeActive,
		Meaning: "Whether the billing relationship is open; absent until the first activation."},
	{Name: TypeDeleting,
		Meaning: "Present while a deleted Subscription waits for its finalizer to be released. " +
			billing.HazardSettlementGate + " " + HazardNeverActivated},
	{Name: TypeCostsResolved,
		Meaning: "Where the last charge collection run took status.costs from."},
}

// Vocabulary is the Subscription's condition table: every type, every
// (status, reason) pair, what it means, what to do and whether it is
// terminal, read from the rules. Docs, validation and tests all read it.
var Vocabulary = conditions.MustVocabulary(finopsv1.APIVersion, finopsv1.KindSubscription, condTypes, conditions.FromRules(rules))

// Rules is the table of the rules that decide a Subscription's
// conditions, one sentence each, gates in the order they run. The slice
// is a copy.
func Rules() []conditions.Rule { return Vocabulary.Rules() }
