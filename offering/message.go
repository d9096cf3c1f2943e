package offering

import "github.com/condengine/condengine/redact"

// foreign redacts one part of a message that comes from another object:
// another Offering's name in a loop path, a dependent's name, a
// PriceBook's rate value.
func foreign(s string) string {
	return redact.Message(s)
}

// shown gives the name of an object the Offering's reader may see (an
// Offering or Subscription of its namespace, or one its namespace's
// Offerings name) as written; only a string that cannot be a name is
// redacted.
func shown(ref string) string {
	return redact.Name(ref)
}
