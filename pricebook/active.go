package pricebook

import (
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// Reasons of a PriceBook's Active condition.
const (
	// ReasonActivated goes with Active=True: the book took the slot.
	ReasonActivated = "Activated"
	// ReasonDemoted goes with Active=False: another book took it.
	ReasonDemoted = "Demoted"
)

// What the Active rules write; the kept rule may keep either.
var (
	writeActivated = conditions.Reason{Status: metav1.ConditionTrue, Reason: ReasonActivated,
		Meaning: "The book took the active slot; when it is also ready its rates are what OpenCost prices with.",
		Action:  "None."}
	writeDemoted = conditions.Reason{Status: metav1.ConditionFalse, Reason: ReasonDemoted,
		Meaning: "Another book took the slot; this book's status.activePricing was cleared.",
		Action:  "None, unless this book should win: annotate it " + finopsv1.ActiveAnnotation + "=\"true\"."}
)

// Active's rules, decided by activity from the election: activated for a
// winner not holding the slot, demoted for a loser holding it, kept (as
// the object carries it, absent staying absent) when nothing changes.
const (
	ruleActivated ruleIndex = readyEnd + iota
	ruleDemoted
	ruleKept
	activeEnd
)

var activeRules = []conditions.Rule{
	ruleActivated: {ID: "pricebook/active/activated", Kind: finopsv1.KindPriceBook, Types: []string{TypeActive},
		Sentence: "the book wins the election (annotated, then incumbent, then newest; ties by namespace, name, UID) and did not hold the slot",
		Writes:   []conditions.Reason{writeActivated}},
	ruleDemoted: {ID: "pricebook/active/demoted", Kind: finopsv1.KindPriceBook, Types: []string{TypeActive},
		Sentence: "the book held the slot and another book wins the election",
		Writes:   []conditions.Reason{writeDemoted}},
	ruleKept: {ID: "pricebook/active/kept", Kind: finopsv1.KindPriceBook, Types: []string{TypeActive},
		Sentence: "no transition: Active stays as the object carries it, its message redacted again",
		Writes:   []conditions.Reason{writeActivated, writeDemoted}},
}

// activity decides Active from the election: a transition is written, no
// transition keeps the condition as it is, its observedGeneration
// included (the caller redacts its message again), and absent on a book
// that never held the slot (kept is nil).
func activity(b, winner *finopsv1.PriceBook, rec *conditions.Recorder) (v conditions.Verdict, kept *metav1.Condition) {
	won := b == winner
	if rec.On() {
		rec.Read(TypeActive, ref(b), conditions.F("status.active", strconv.FormatBool(b.Status.Active)),
			conditions.F("election.tier", tierNames[tier(b)]), conditions.FTime("metadata.creationTimestamp", b.CreationTimestamp.Time))
		if !won && winner != nil {
			rec.Read(TypeActive, ref(winner), conditions.F("election.tier", tierNames[tier(winner)]),
				conditions.FTime("metadata.creationTimestamp", winner.CreationTimestamp.Time))
		}
	}
	switch {
	case won && !b.Status.Active:
		return rules[ruleActivated].Verdict(0, "", b.Generation), nil
	case !won && b.Status.Active:
		return rules[ruleDemoted].Verdict(0, "", b.Generation), nil
	}
	kept = conditions.Find(Vocabulary.Held(b.Status.Conditions, b.CreationTimestamp.Time), TypeActive)
	return conditions.Verdict{Rule: &rules[ruleKept]}, kept
}

var tierNames = [...]string{tierNewest: "newest", tierIncumbent: "incumbent (status.active)", tierAnnotated: "annotated " + finopsv1.ActiveAnnotation + "=true"}
