package binding

import (
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// A Binding's rules are declared beside the code that decides them:
// Accepted's in accepted.go, the probe conditions' in probe.go, Ready's in
// ready.go. Each rule is declared once, with the reasons it writes and
// their text; this file joins the blocks into the one table that the
// vocabulary, the rule table (Rules, docs/rules.md, condengine explain
// -rules, condengine vocab) and the order of Accepted's reasons are read
// from. Adding a reason is one edit in the file of its condition (the
// constant, the rule with an Example input that makes it fire, and the
// code that returns it), then `go generate ./...` for the docs and the
// rule's corpus scenario.

// Condition types of a Binding, in the order they are written.
const (
	TypeAccepted         = "Accepted"
	TypeBackendReachable = "BackendReachable"
	TypeChannelJoined    = "ChannelJoined"
	TypeReady            = conditions.TypeReady
)

// Reason is the reason of a Binding's condition. Ready's False and
// Unknown reasons are not constants: they are "<Type>:<Reason>" of the
// condition that holds the Binding back.
type Reason string

// Reasons that more than one condition carries; the others are declared
// with their condition's rules.
const (
	// ReasonOK goes with every type, True.
	ReasonOK Reason = "OK"
	// ReasonPending goes with BackendReachable, ChannelJoined and Ready,
	// Unknown: nothing has been found yet.
	ReasonPending Reason = "Pending"
)

const (
	sTrue    = metav1.ConditionTrue
	sFalse   = metav1.ConditionFalse
	sUnknown = metav1.ConditionUnknown
)

// ruleIndex names a rule by its position in rules.
type ruleIndex uint8

// write is one (status, reason) a rule writes, with its text.
func write(st metav1.ConditionStatus, r Reason, meaning, action string) conditions.Reason {
	return conditions.Reason{Status: st, Reason: string(r), Meaning: meaning, Action: action}
}

// rule declares one of the Binding's rules, for one condition type.
func rule(id, typ, sentence string, ws ...conditions.Reason) conditions.Rule {
	return conditions.Rule{ID: id, Kind: akv1.KindBinding, Types: []string{typ}, Sentence: sentence, Writes: ws}
}

// The rules that concern no one condition. The chain of indices runs
// through the files that declare the rules, in the order the docs list
// them: accepted.go, probe.go, ready.go, then these.
const (
	ruleStaleMemory ruleIndex = readyEnd + iota
	numRules
)

var otherRules = []conditions.Rule{
	ruleStaleMemory: {ID: "binding/stale-memory", Kind: akv1.KindBinding, Sentence: "the broker's memory serves a generation above metadata.generation, so the snapshot lags and the conditions are kept as they are"},
}

// rules is the Binding's rule table, in the order the docs list it: each
// block is declared beside the code that decides its condition, keyed by
// the indices of its own rules, and the blocks are joined in index order.
var rules = func() [numRules]conditions.Rule {
	t := [numRules]conditions.Rule(slices.Concat(acceptedRules, probeRules[acceptedEnd:], readyRules[probeEnd:], otherRules[readyEnd:]))
	deriveReady(&t)
	return t
}()

// Vocabulary is the Binding's condition table: the four types in their
// written order and every (status, reason) pair each may carry, read
// from the rules. True conditions have empty messages.
var Vocabulary = conditions.MustVocabulary(akv1.APIVersion, akv1.KindBinding, []conditions.Type{
	{Name: TypeAccepted, Meaning: "Whether the broker took the Binding as written.", Required: true},
	{Name: TypeBackendReachable, Meaning: "Whether a fresh fetch of the agent's card worked and the card is usable."},
	{Name: TypeChannelJoined, Meaning: "Whether the bot is in the Binding's channel, which exists and is open."},
	{Name: TypeReady, Meaning: "Whether every other condition is True.", Required: true},
}, conditions.EmptyMessageWhenTrue(), conditions.FromRules(rules[:]))

// Rules is the table of the rules that decide a Binding's conditions, one
// sentence each, by condition type. The slice is a copy.
func Rules() []conditions.Rule { return Vocabulary.Rules() }
