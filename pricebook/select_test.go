package pricebook_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/pricebook"
	pb "github.com/condengine/condengine/pricebook/pricebooktest"
)

func names(books []finopsv1.PriceBook, i int) string {
	if i < 0 {
		return ""
	}
	return books[i].Namespace + "/" + books[i].Name
}

func deleting(b *finopsv1.PriceBook) {
	t := metav1.NewTime(pb.Epoch().Add(24 * time.Hour))
	b.DeletionTimestamp = &t
}

func TestElect_Tiers(t *testing.T) {
	old, mid, young := pb.Epoch(), pb.Epoch().Add(time.Hour), pb.Epoch().Add(2*time.Hour)
	for _, tc := range []struct {
		name  string
		books []finopsv1.PriceBook
		want  string
	}{
		{"NoBooks", nil, ""},
		{"Tier3_NewestWinsOnBootstrap", []finopsv1.PriceBook{
			pb.New("a", "old", pb.Created(old)), pb.New("a", "young", pb.Created(young))}, "a/young"},
		{"Tier2_IncumbentKeepsSlotAgainstNewerBook", []finopsv1.PriceBook{
			pb.New("a", "old", pb.Created(old), pb.Incumbent()), pb.New("a", "young", pb.Created(young))}, "a/old"},
		{"Tier1_AnnotationBeatsIncumbent", []finopsv1.PriceBook{
			pb.New("a", "old", pb.Created(old), pb.Annotated("true")),
			pb.New("a", "young", pb.Created(young), pb.Incumbent())}, "a/old"},
		{"Tier1_TwoAnnotated_NewerCreatedWins", []finopsv1.PriceBook{
			pb.New("a", "old", pb.Created(old), pb.Annotated("true")),
			pb.New("a", "mid", pb.Created(mid), pb.Annotated("true")),
			pb.New("a", "young", pb.Created(young))}, "a/mid"},
		{"Annotation_OnlyExactTrueCounts", []finopsv1.PriceBook{
			pb.New("a", "cap", pb.Created(young), pb.Annotated("True")),
			pb.New("a", "yes", pb.Created(young), pb.Annotated("yes")),
			pb.New("a", "inc", pb.Created(old), pb.Incumbent())}, "a/inc"},
		{"TieBreak_NamespaceAscending", []finopsv1.PriceBook{
			pb.New("b", "x", pb.Created(old)), pb.New("a", "z", pb.Created(old))}, "a/z"},
		{"TieBreak_NameAscending", []finopsv1.PriceBook{
			pb.New("a", "y", pb.Created(old)), pb.New("a", "x", pb.Created(old))}, "a/x"},
		{"TwoIncumbents_NewestKeeps", []finopsv1.PriceBook{
			pb.New("a", "old", pb.Created(old), pb.Incumbent()),
			pb.New("a", "mid", pb.Created(mid), pb.Incumbent()),
			pb.New("a", "young", pb.Created(young))}, "a/mid"},
		{"ReadinessIgnored_BrokenNewestWins", []finopsv1.PriceBook{
			pb.New("a", "good", pb.Created(old)),
			pb.New("a", "broken", pb.Created(young), pb.Rate(pricebook.CPUHour, "-1"))}, "a/broken"},
		{"PercentBookCanHoldTheSlot", []finopsv1.PriceBook{
			pb.New("a", "cur", pb.Created(old)), pb.New("a", "pct", pb.Created(young), pb.Percent())}, "a/pct"},
		// A book being deleted leaves the election in every tier.
		{"Deleting_AnnotatedLosesToPlain", []finopsv1.PriceBook{
			pb.New("a", "pinned", pb.Created(young), pb.Annotated("true"), pb.Incumbent(), deleting),
			pb.New("a", "plain", pb.Created(old))}, "a/plain"},
		{"Deleting_IncumbentLosesToNewest", []finopsv1.PriceBook{
			pb.New("a", "inc", pb.Created(young), pb.Incumbent(), deleting),
			pb.New("a", "other", pb.Created(old))}, "a/other"},
		{"Deleting_AloneNoWinner", []finopsv1.PriceBook{
			pb.New("a", "last", pb.Created(young), deleting)}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, names(tc.books, pricebook.Elect(tc.books)))
		})
	}
}

func TestActiveBook_ReadsStoredFlagNotElection(t *testing.T) {
	books := []finopsv1.PriceBook{
		pb.New("a", "annotated", pb.Annotated("true")), // would win the election
		pb.New("a", "stored", pb.Incumbent()),
	}
	assert.Equal(t, "a/stored", names(books, pricebook.ActiveBook(books)))
	assert.Equal(t, -1, pricebook.ActiveBook(books[:1]))
}

// creationTimestamp is read at whole seconds, as the API server stores
// it: two books created within one second tie on time and the namespace,
// then the name, ascending, decides, whether the election runs on its own
// or inside Evaluate.
func TestElect_CreatedWithinOneSecondTieOnTime(t *testing.T) {
	books := []finopsv1.PriceBook{
		pb.New("team-z", "later", pb.Created(pb.Epoch().Add(700*time.Millisecond))),
		pb.New("team-a", "earlier", pb.Created(pb.Epoch().Add(200*time.Millisecond))),
	}
	assert.Equal(t, "team-a/earlier", names(books, pricebook.Elect(books)))
	r, err := pricebook.Evaluate(books, nil, pb.Epoch().Add(time.Hour))
	assert.NoError(t, err)
	assert.Equal(t, "team-a/earlier", r.Books[r.Elected].Namespace+"/"+r.Books[r.Elected].Name)
}
