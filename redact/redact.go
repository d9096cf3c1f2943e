package redact

// DefaultMaxBytes is the longest message Message returns, in bytes.
const DefaultMaxBytes = 1024

// ellipsis marks where a message was cut. Its three bytes count towards the
// limit.
const ellipsis = "…"

// Message returns s as a status message may carry it: one line of valid
// UTF-8, with addresses, URLs, e-mail addresses and credentials replaced
// by placeholders, cut to at most DefaultMaxBytes bytes with "…" where
// cut. A message that already obeys all of that is returned as is, without
// allocating. Message(Message(s)) == Message(s) for every s.
func Message(s string) string { return message(s, DefaultMaxBytes, nil) }

// message is Message with the limit as a parameter (at least the
// ellipsis's 3 bytes to keep anything), so the cut can be tested at
// small sizes, and the names the reader sees (nil for none).
func message(s string, limit int, names Names) string {
	t := normalize(s)
	// A second pass normally finds nothing; it is the proof that the result
	// is a fixed point. Each pass that changes something strictly reduces
	// the text outside placeholders, so the loop ends. Once the text is over
	// the limit, cut takes over the proof for the part it keeps.
	for {
		r, changed := redactOnce(t, names)
		t = r
		if !changed || len(t) > limit {
			break
		}
	}
	if len(t) > limit {
		return cut(t, limit, names)
	}
	return t
}

// Clean reports whether s already obeys the message rule and needs no
// redaction, that is whether Message(s) == s.
func Clean(s string) bool {
	return Message(s) == s
}

// scan returns the resolved spans of the normalized string s, without
// the findings that lie inside a name the reader sees (names nil: none).
func scan(s string, names Names) []span {
	var spans []span
	for _, r := range rules {
		n := len(spans)
		spans = r.find(s, spans)
		if names != nil && !r.byContext && len(spans) > n {
			seen := seenFilter{n: names}
			spans = spans[:n+len(seen.filter(s, spans[n:]))]
		}
	}
	if len(spans) == 0 {
		return nil
	}
	return resolve(spans, findPlaceholders(s))
}

func redactOnce(s string, names Names) (string, bool) {
	spans := scan(s, names)
	if len(spans) == 0 {
		return s, false
	}
	return replace(s, spans), true
}
