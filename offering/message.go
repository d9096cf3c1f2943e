package offering

import "github.com/condengine/condengine/redact"

// Message makes s fit the house rule for condition messages by way of
// package redact, the one place that rule lives.
func Message(s string) string {
	return redact.Message(s, redact.Options{})
}
