package pricebook

import (
	"cmp"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/internal/wholesec"
)

// Selection tiers, highest first. A book's tier is the best one it
// qualifies for; the winner comes from the highest tier with a book.
const (
	tierNewest    = 0 // any book: the bootstrap election
	tierIncumbent = 1 // status.active already true
	tierAnnotated = 2 // annotation finops.stakater.com/active exactly "true"
)

// tier is the best selection tier b qualifies for. Only the exact value
// "true" pins a book: "True", "yes" or "1" do not.
func tier(b *finopsv1.PriceBook) int {
	switch {
	case b.Annotations[finopsv1.ActiveAnnotation] == "true":
		return tierAnnotated
	case b.Status.Active:
		return tierIncumbent
	}
	return tierNewest
}

// prefer orders books within a tier: negative when a should win over b.
// Newest creationTimestamp first, read at whole seconds as the API server
// stores it (so Elect, called on its own, agrees with Evaluate), then
// namespace and name ascending; the uid ends ties between copies of one
// identity so the order is total.
func prefer(a, b *finopsv1.PriceBook) int {
	if c := wholesec.Time(b.CreationTimestamp).Compare(wholesec.Time(a.CreationTimestamp).Time); c != 0 {
		return c
	}
	return cmp.Or(
		cmp.Compare(a.Namespace, b.Namespace),
		cmp.Compare(a.Name, b.Name),
		cmp.Compare(a.UID, b.UID),
	)
}

// Elect returns the index of the book that holds the active slot, or -1
// when there is no book. It reads each book once: the best candidate is
// kept while scanning, so the cost is linear and no list is sorted.
// Readiness and valuation mode play no part: a broken or percent book can
// win, on purpose, so a typo shows as a failure instead of a silent
// switch to other prices. A book being deleted takes no part in any tier:
// when it held the slot, the slot moves in this same reconcile.
func Elect(books []finopsv1.PriceBook) int {
	best, bestTier := -1, -1
	for i := range books {
		if books[i].DeletionTimestamp != nil {
			continue
		}
		t := tier(&books[i])
		if t > bestTier || t == bestTier && prefer(&books[i], &books[best]) < 0 {
			best, bestTier = i, t
		}
	}
	return best
}

// ActiveBook returns the index of the book another kind prices against:
// among the books whose status.active is true in the snapshot, the one
// the election would prefer. It is -1 when no book is marked active.
// Offerings read this rather than the election of the same evaluation, as
// the operator's Offering reconciler reads the stored flag.
func ActiveBook(books []finopsv1.PriceBook) int {
	best, bestTier := -1, -1
	for i := range books {
		if !books[i].Status.Active {
			continue
		}
		t := tier(&books[i])
		if t > bestTier || t == bestTier && prefer(&books[i], &books[best]) < 0 {
			best, bestTier = i, t
		}
	}
	return best
}
