package redact

// DefaultMaxBytes is the message size limit used when Options.MaxBytes is
// zero or negative.
const DefaultMaxBytes = 1024

// ellipsis marks where a message was cut. Its three bytes count towards the
// limit.
const ellipsis = "…"

// Options tune Message. The zero value applies the default limit and hides
// no caller strings.
type Options struct {
	// MaxBytes is the largest result in bytes; zero or negative means
	// DefaultMaxBytes.
	MaxBytes int
	// Hide lists strings the result must not contain, such as another
	// namespace's names and texts. Matching is exact and case-sensitive,
	// after the same line and UTF-8 cleanup the message gets (strings
	// that need it cost an allocation per call). Strings shorter than 3
	// bytes and the ellipsis "…" itself are ignored.
	Hide []string
}

func (o Options) limit() int {
	if o.MaxBytes <= 0 {
		return DefaultMaxBytes
	}
	return o.MaxBytes
}

// Message returns s as a status message may carry it: one line of valid
// UTF-8, with addresses, URLs, e-mail addresses, credentials and the
// caller's Hide strings replaced by placeholders, cut to at most
// opts.MaxBytes bytes with "…" where cut. A message that already obeys all
// of that is returned as is, without allocating. Message(Message(s)) ==
// Message(s) for every s and opts.
func Message(s string, opts Options) string {
	hides := prepareHides(opts.Hide)
	limit := opts.limit()
	t := normalize(s)
	// A second pass normally finds nothing; it is the proof that the result
	// is a fixed point. Each pass that changes something strictly reduces
	// the text outside placeholders, so the loop ends. Once the text is over
	// the limit, cut takes over the proof for the part it keeps.
	for {
		r, changed := redactOnce(t, hides)
		t = r
		if !changed || len(t) > limit {
			break
		}
	}
	if len(t) > limit {
		return cut(t, limit, hides)
	}
	return t
}

// Clean reports whether s already obeys the message rule and needs no
// redaction under opts, that is whether Message(s, opts) == s.
func Clean(s string, opts Options) bool {
	return Message(s, opts) == s
}

// prepareHides normalizes the caller's strings like a message, so "a\nb"
// still hides the "a b" it turns into. It allocates only when one of them
// changes.
func prepareHides(hides []string) []string {
	for i, h := range hides {
		if !isNormal(h) {
			out := make([]string, len(hides))
			copy(out, hides[:i])
			for j := i; j < len(hides); j++ {
				out[j] = normalize(hides[j])
			}
			return out
		}
	}
	return hides
}

// scan returns the resolved spans of the normalized string s.
func scan(s string, hides []string) []span {
	var spans []span
	for _, r := range rules {
		spans = r.find(s, spans)
	}
	ph := findPlaceholders(s)
	spans = findHidden(s, hides, ph, spans)
	if len(spans) == 0 {
		return nil
	}
	return resolve(spans, ph)
}

func redactOnce(s string, hides []string) (string, bool) {
	spans := scan(s, hides)
	if len(spans) == 0 {
		return s, false
	}
	r, _ := hideAcrossPlaceholders(replace(s, spans), hides)
	return r, true
}
