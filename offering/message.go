package offering

import "github.com/condengine/condengine/redact"

// foreign redacts one part of a message that comes from another object,
// a PriceBook's rate value. The names of other objects a reader may see
// go through redact.Name where the message is built.
func foreign(s string) string {
	return redact.Message(s)
}
