package offering

import "github.com/condengine/condengine/redact"

// Message makes s fit the house rule for condition messages: one line,
// valid UTF-8, at most 1024 bytes. It hides nothing: the evaluator
// assembles messages from the Offering's own text (its namespace and name,
// its requirement entries and meters as written, its margins), shown whole
// (binding-decisions §11.3, finops-decisions 19), and parts from elsewhere
// that it has passed through foreign one by one.
func Message(s string) string {
	return redact.Fit(s, redact.DefaultMaxBytes)
}

// foreign redacts one part of a message that comes from another object:
// another Offering's name in a loop path, a dependent's name, a
// PriceBook's rate value.
func foreign(s string) string {
	return redact.Message(s, redact.Options{})
}
