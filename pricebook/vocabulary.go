package pricebook

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// Condition types of a PriceBook, in the order they are written.
const (
	TypeReady  = conditions.TypeReady
	TypeActive = "Active"
)

// Reasons a PriceBook's conditions carry.
const (
	ReasonValidationSucceeded  = conditions.ReasonValidationSucceeded
	ReasonPricebookParseFailed = "PricebookParseFailed"
	ReasonActivated            = "Activated"
	ReasonDemoted              = "Demoted"
)

// Vocabulary is the PriceBook's condition table. Ready is always written;
// Active appears only once the book's active flag has changed.
var Vocabulary = conditions.MustVocabulary(finopsv1.APIVersion, finopsv1.KindPriceBook, []conditions.Type{
	{
		Name:     TypeReady,
		Meaning:  "Whether this book's own rates can be used; selection does not look at it.",
		Required: true,
		Reasons: []conditions.Reason{
			{
				Status:  metav1.ConditionTrue,
				Reason:  ReasonValidationSucceeded,
				Meaning: "All rates convert to micro-units, or the book is not a currency book and has nothing to convert.",
				Action:  "None.",
			},
			{
				Status:  metav1.ConditionFalse,
				Reason:  ReasonPricebookParseFailed,
				Meaning: "The first rate, in field order, that does not convert to micro-units; the message quotes it.",
				Action:  "Correct the named rate; usually it is too large or has more than six decimal places.",
			},
		},
	},
	{
		Name:    TypeActive,
		Meaning: "Whether this book holds the cluster's single active slot; written only when that changes.",
		Reasons: []conditions.Reason{
			{
				Status:  metav1.ConditionTrue,
				Reason:  ReasonActivated,
				Meaning: "The book took the active slot; when it is also ready its rates are what OpenCost prices with.",
				Action:  "None.",
			},
			{
				Status:  metav1.ConditionFalse,
				Reason:  ReasonDemoted,
				Meaning: "Another book took the slot; this book's status.activePricing was cleared.",
				Action:  "None, unless this book should win: annotate it " + finopsv1.ActiveAnnotation + "=\"true\".",
			},
		},
	},
})
