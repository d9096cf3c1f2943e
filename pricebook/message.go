package pricebook

import "github.com/condengine/condengine/redact"

// Message makes s fit the house rule for condition messages (one line,
// valid UTF-8, at most 1024 bytes, no address, URL or secret), by way of
// package redact, the one place that rule lives.
func Message(s string) string {
	return redact.Message(s, redact.Options{})
}
