package pricebook

import (
	"maps"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
)

// Outcome is what one reconcile decides for one PriceBook.
type Outcome struct {
	// Status is the book's status after the reconcile: what is written,
	// or the current status when nothing is.
	Status Status
	// Changed reports that a status write is due.
	Changed bool
	// Stale reports that the book's conditions describe a newer
	// generation than the snapshot holds, so nothing is written for it.
	Stale bool
	// Provenance holds, with Explain, one entry per condition of
	// Status.Conditions, in the same order: the rule that decided it and
	// the raw evidence (for logs and tools, never a status). Evaluate
	// leaves it nil.
	Provenance []conditions.Provenance `json:",omitempty"`
}

// Result is one reconcile of every PriceBook against one snapshot.
type Result struct {
	// Books holds one Outcome per input book, at the same index.
	Books []Outcome
	// Winner is the index of the book holding the active slot, or -1
	// when there are no books.
	Winner int
	// Document is the OpenCost pricing document pushed by this
	// reconcile; nil when nothing is pushed (no book, or the winner is
	// not ready and the last good document stays).
	Document map[string]string
	// DocumentChanged reports that Document differs from the previous
	// document, which is what restarts OpenCost.
	DocumentChanged bool
}

// Evaluate reconciles every book against the same list: each book's own
// Ready from its rates, the one election, the Active transitions, and the
// pricing document of the winner compared with previous (the document
// OpenCost holds now; nil when none). It reads each book a constant
// number of times and does not modify its arguments.
func Evaluate(books []PriceBook, previous map[string]string, now time.Time) Result {
	res := Result{Books: make([]Outcome, len(books)), Winner: Elect(books)}
	for i := range books {
		res.Books[i] = evaluateBook(&books[i], i == res.Winner, now)
	}
	if w := res.Winner; w >= 0 && res.Books[w].Status.Ready == metav1.ConditionTrue && !res.Books[w].Stale {
		res.Document = Document(&books[w])
		res.DocumentChanged = DocumentChanged(previous, res.Document)
	}
	return res
}

// Readiness parses the book's rates: nil when it is ready, else the first
// failure as a *RateError. A book whose valuation mode is not currency is
// ready without parsing anything.
func Readiness(b *PriceBook) error {
	if b.Spec.ValuationMode != ValuationCurrency {
		return nil
	}
	_, err := ParseRates(b.Spec.Rates)
	return err
}

func evaluateBook(b *PriceBook, won bool, now time.Time) Outcome {
	cur := b.Status
	ready := metav1.Condition{Type: TypeReady, Status: metav1.ConditionTrue,
		Reason: ReasonValidationSucceeded, ObservedGeneration: b.Generation}
	if err := Readiness(b); err != nil {
		ready.Status, ready.Reason, ready.Message = metav1.ConditionFalse, ReasonPricebookParseFailed, Message(err.Error())
	}
	var buf [2]metav1.Condition
	desired := append(buf[:0], ready)
	switch {
	case won && !cur.Active:
		desired = append(desired, metav1.Condition{Type: TypeActive, Status: metav1.ConditionTrue,
			Reason: ReasonActivated, ObservedGeneration: b.Generation})
	case !won && cur.Active:
		desired = append(desired, metav1.Condition{Type: TypeActive, Status: metav1.ConditionFalse,
			Reason: ReasonDemoted, ObservedGeneration: b.Generation})
	default:
		// No transition: the condition stays exactly as it is, its
		// observedGeneration included, and stays absent on a book that
		// never held the slot.
		if c := conditions.Find(Vocabulary.Held(cur.Conditions, b.CreationTimestamp.Time), TypeActive); c != nil {
			desired = append(desired, *c)
		}
	}
	m := Vocabulary.MergeObject(b, cur.Conditions, desired, now)
	if m.Stale {
		return Outcome{Status: cur, Stale: true}
	}
	next := Status{Active: won, Ready: ready.Status, Conditions: m.Conditions}
	if won && ready.Status == metav1.ConditionTrue {
		next.ActivePricing = Document(b)
	}
	changed := m.Changed || next.Active != cur.Active || next.Ready != cur.Ready ||
		!maps.Equal(next.ActivePricing, cur.ActivePricing)
	if !changed {
		// Keep the caller's maps and slices: an unchanged book costs no
		// allocation beyond the comparison.
		next.ActivePricing = cur.ActivePricing
	}
	return Outcome{Status: next, Changed: changed}
}
