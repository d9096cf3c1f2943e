package pricebook_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/pricebook"
	pb "github.com/condengine/condengine/pricebook/pricebooktest"
)

// The Active condition a book keeps (no transition) is carried from its
// stored status with the message redacted again: the book's own name
// stays, text someone else put there is hidden. Hiding it is a change to
// write; status, reason, observedGeneration and lastTransitionTime stay.
func TestActive_KeptMessageRedactedAgain(t *testing.T) {
	books := []finopsv1.PriceBook{pb.New("finops", "book-10.0.0.7")}
	books = apply(books, evaluate(books, nil, now))
	r := evaluate(books, nil, now)
	require.False(t, r.Books[0].Write, "settled")
	for _, tc := range []struct {
		name, stored, want string
		write              bool
	}{
		{"OwnNameKept", "kept for finops/book-10.0.0.7", "kept for finops/book-10.0.0.7", false},
		{"PlantedSecretsHidden", "pushed to 10.0.0.9:9003 with token=abc123 and xoxb-123456789012-abcdefghijkl",
			"pushed to [address] with token=[secret] and [secret]", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bs := append([]finopsv1.PriceBook(nil), books...)
			bs[0].Status.Conditions = append(bs[0].Status.Conditions[:0:0], bs[0].Status.Conditions...)
			old := conditions.Find(bs[0].Status.Conditions, pricebook.TypeActive)
			require.NotNil(t, old)
			old.Message = tc.stored
			out := evaluate(bs, nil, now.Add(time.Hour)).Books[0]
			c := conditions.Find(out.Status.Conditions, pricebook.TypeActive)
			require.NotNil(t, c)
			assert.Equal(t, tc.want, c.Message)
			assert.Equal(t, old.Status, c.Status)
			assert.Equal(t, old.Reason, c.Reason)
			assert.Equal(t, old.ObservedGeneration, c.ObservedGeneration)
			assert.True(t, c.LastTransitionTime.Equal(&old.LastTransitionTime))
			assert.Equal(t, tc.write, out.Write, "a hidden secret is a change to write")
		})
	}
}
