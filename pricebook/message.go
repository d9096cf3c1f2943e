package pricebook

import "github.com/condengine/condengine/redact"

// Message makes s fit the house rule for condition messages: one line,
// valid UTF-8, at most 1024 bytes, with "…" where cut. It hides nothing:
// every PriceBook message is assembled from the book's own text (a rate's
// field name and its value as written) and fixed words, and own text is
// shown whole (finops-decisions 19, binding-decisions §11.3). A message
// that quoted text from elsewhere would pass that part through
// redact.Message first.
func Message(s string) string {
	return redact.Fit(s, redact.DefaultMaxBytes)
}
