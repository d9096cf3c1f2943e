package vocab_test

import (
	"os"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/vocab"
)

// The page of a kind that is not one of the seed systems': its
// vocabulary and rules are values, and each reason's row names the rule
// that writes it.
func Example() {
	provisioned := conditions.Reason{Status: metav1.ConditionTrue, Reason: "Provisioned",
		Meaning: "the database exists and answers", Action: "nothing"}
	secretMissing := conditions.Reason{Status: metav1.ConditionFalse, Reason: "SecretNotFound",
		Meaning: "the Secret named in spec.secretRef does not exist", Action: "create the Secret or fix the reference"}
	v := conditions.MustVocabulary("example.dev/v1", "Database", []conditions.Type{
		{Name: "Provisioned", Meaning: "whether the database exists", Required: true, Reasons: []conditions.Reason{provisioned, secretMissing}},
	})
	rules := []conditions.Rule{
		{ID: "database/provisioned/secret-not-found", Kind: "Database", Types: []string{"Provisioned"},
			Sentence: "the referenced Secret is missing", Writes: []conditions.Reason{secretMissing}},
		{ID: "database/provisioned/ok", Kind: "Database", Types: []string{"Provisioned"},
			Sentence: "the probe answered", Writes: []conditions.Reason{provisioned}},
	}
	if err := vocab.Markdown(os.Stdout, v, rules); err != nil {
		panic(err)
	}
	// Output:
	// # Database conditions
	//
	// API version `example.dev/v1`. Condition types, in the order they are written: `Provisioned`.
	// No other type is ours; a pair not listed below is invalid.
	//
	// ## Provisioned
	//
	// whether the database exists
	//
	// Always present once the kind carries any condition.
	//
	// | Status | Reason | Meaning | What to do | Transient or terminal | Rules |
	// |---|---|---|---|---|---|
	// | True | `Provisioned` | the database exists and answers | nothing | transient | `database/provisioned/ok` |
	// | False | `SecretNotFound` | the Secret named in spec.secretRef does not exist | create the Secret or fix the reference | transient | `database/provisioned/secret-not-found` |
}
