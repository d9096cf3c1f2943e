package pricebook

import (
	"cmp"
	"maps"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/internal/wholesec"
	"github.com/condengine/condengine/redact"
)

// Outcome is what one reconcile decides for one PriceBook: the shared
// conditions.Outcome (identity, Conditions, Owned, Write and Skip,
// Finalizer, Retry) and the book's whole Status. A PriceBook has no
// finalizer and asks for no retry: a book that does not parse waits for
// its next edit.
type Outcome struct {
	conditions.Outcome
	// Status is the book's status after the reconcile: what is written,
	// or the current status when nothing is.
	Status finopsv1.PriceBookStatus
	// Provenance holds, with Explain, one entry per condition of
	// Status.Conditions, in the same order: the rule that decided it and
	// the raw evidence (for logs and tools, never a status). Evaluate
	// leaves it nil.
	Provenance []conditions.Provenance `json:",omitempty"`
}

// Result is one reconcile of every PriceBook against one snapshot.
type Result struct {
	// Books holds one Outcome per input book, sorted by namespace, name
	// and UID.
	Books []Outcome
	// Elected is the position in Books of the book the election gives
	// the active slot, or -1 when there are no books.
	Elected int
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
// number of times and does not modify its arguments. A zero now is
// refused with conditions.ErrZeroNow.
func Evaluate(books []finopsv1.PriceBook, previous map[string]string, now time.Time) (Result, error) {
	return evaluate(books, previous, now, false)
}

// Explain is Evaluate with provenance: each Outcome also carries, in
// Provenance, the rule and the raw evidence behind each of its
// conditions (for logs and tools, never a status). It is the same
// evaluation with a recorder on; nothing is decided a second time.
func Explain(books []finopsv1.PriceBook, previous map[string]string, now time.Time) (Result, error) {
	return evaluate(books, previous, now, true)
}

func evaluate(books []finopsv1.PriceBook, previous map[string]string, now time.Time, explain bool) (Result, error) {
	if err := conditions.CheckNow(now); err != nil {
		return Result{}, err
	}
	books = wholeSeconds(books)
	winner := Elect(books)
	var w *finopsv1.PriceBook
	if winner >= 0 {
		w = &books[winner]
	}
	order := outcomeOrder(books)
	res := Result{Books: make([]Outcome, len(books)), Elected: -1}
	for k, i := range order {
		var rec *conditions.Recorder
		if explain {
			rec = &conditions.Recorder{}
		}
		res.Books[k] = evaluateBook(&books[i], w, now, rec)
		if i == winner {
			res.Elected = k
		}
	}
	if w := res.Elected; w >= 0 && res.Books[w].Status.Ready == metav1.ConditionTrue && res.Books[w].Skip != conditions.SkipStale {
		res.Document = Document(&books[winner])
		res.DocumentChanged = DocumentChanged(previous, res.Document)
	}
	return res, nil
}

// wholeSeconds is books with every instant a book carries
// (creationTimestamp, deletionTimestamp, each lastTransitionTime) read
// at whole seconds, as the API server stores them: books itself when
// none has a fraction, else a copy. Every rule reads the books through
// it, so two books created within one second tie on time and the
// namespace, then the name, decides the election.
func wholeSeconds(books []finopsv1.PriceBook) []finopsv1.PriceBook {
	return wholesec.Objects(books, func(b *finopsv1.PriceBook) bool {
		return wholesec.MetaWhole(&b.ObjectMeta) && wholesec.ConditionsWhole(b.Status.Conditions)
	}, func(b *finopsv1.PriceBook) {
		wholesec.FixMeta(&b.ObjectMeta)
		b.Status.Conditions = wholesec.Conditions(b.Status.Conditions)
	})
}

func ref(b *finopsv1.PriceBook) conditions.ObjectRef {
	return conditions.ObjectRef{Kind: finopsv1.KindPriceBook, Namespace: b.Namespace, Name: b.Name, UID: b.UID, Generation: b.Generation}
}

// evaluateBook decides one book; with a recorder the outcome carries the
// provenance of its conditions.
func evaluateBook(b, winner *finopsv1.PriceBook, now time.Time, rec *conditions.Recorder) Outcome {
	out := decideBook(b, winner, now, rec)
	if rec.On() {
		out.Provenance = Vocabulary.Attach(out.Status.Conditions, out.Skip == conditions.SkipStale, ref(b), rec.Provenance())
	}
	return out
}

func decideBook(b, winner *finopsv1.PriceBook, now time.Time, rec *conditions.Recorder) Outcome {
	cur := b.Status
	won := b == winner
	rv := readiness(b, rec)
	rec.Decided(TypeReady, "", rv)
	av, kept := activity(b, winner, rec)
	rec.Decided(TypeActive, "", av)
	var buf [2]metav1.Condition
	desired := append(buf[:0], rv.Condition(TypeReady))
	switch {
	case av.Rule != &rules[ruleKept]:
		desired = append(desired, av.Condition(TypeActive))
	case kept != nil:
		// Carried as stored, its message redacted again: anyone who can
		// write the status may have put a secret there. The book's own
		// name is the only name its messages carry.
		c := *kept
		c.Message = redact.Names(func(n string) bool { return redact.NamesObject(n, b.Namespace, b.Name) }).Message(c.Message)
		desired = append(desired, c)
	}
	m := Vocabulary.MergeObject(b, cur.Conditions, desired, now)
	out := Outcome{Outcome: conditions.Outcome{Kind: finopsv1.KindPriceBook, Namespace: b.Namespace, Name: b.Name, UID: b.UID,
		Generation: b.Generation}}
	if m.Stale {
		out.Decide(m, false)
		out.Status = cur
		out.Conditions, out.Owned = cur.Conditions, Vocabulary.Owned(cur.Conditions)
		return out
	}
	next := finopsv1.PriceBookStatus{Active: won, Ready: rv.Status, Conditions: m.Conditions}
	if won && rv.Status == metav1.ConditionTrue {
		next.ActivePricing = Document(b)
	}
	changed := next.Active != cur.Active || next.Ready != cur.Ready ||
		!maps.Equal(next.ActivePricing, cur.ActivePricing)
	if !m.Changed && !changed {
		// Keep the caller's maps and slices: an unchanged book costs no
		// allocation beyond the comparison.
		next.ActivePricing = cur.ActivePricing
	}
	out.Decide(m, changed)
	out.Status = next
	out.Conditions, out.Owned = next.Conditions, Vocabulary.Owned(next.Conditions)
	return out
}

// outcomeOrder lists the books' input positions in the order of their
// outcomes: by namespace, name, UID and generation, input order last.
func outcomeOrder(books []finopsv1.PriceBook) []int {
	order := make([]int, len(books))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		x, y := &books[a], &books[b]
		return cmp.Or(cmp.Compare(x.Namespace, y.Namespace), cmp.Compare(x.Name, y.Name),
			cmp.Compare(x.UID, y.UID), cmp.Compare(x.Generation, y.Generation))
	})
	return order
}
