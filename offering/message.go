package offering

import "github.com/condengine/condengine/redact"

// foreign redacts one part of a message that comes from another object:
// another Offering's name in a loop path, a dependent's name, a
// PriceBook's rate value.
func foreign(s string) string {
	return redact.Message(s)
}
