// Package redact enforces the status message rule in one place: a message
// is one line of valid UTF-8, at most a fixed number of bytes, and shows no
// address, URL, e-mail address, credential or text the caller says belongs
// to someone else.
//
// [Message] produces such a message from any string; [Check] tells whether
// a string already obeys the shape part of the rule (for validators that
// must not rewrite); [Clean] tells whether Message would leave it as is.
// [Fit] gives a string that shape without hiding anything: it is for a
// message assembled from an object's own text, shown whole, and parts from
// elsewhere that went through Message one by one (binding-decisions §11.3).
//
// # What is hidden, and by what
//
//	[url]      scheme://anything up to white space or a quote
//	[address]  IPv4 and IPv6 literals (bracketed, with zone, with port),
//	           host:port where the host has a dot or is localhost, and a
//	           bare :port after white space, '(', '=', ',' or a quote
//	[email]    local@domain.tld and local@localhost
//	[secret]   the token after "Bearer " (any case) and a base64
//	           credential after "Basic " (8 or more characters with a
//	           digit, '+', '/', '=' or an inner capital, so "basic
//	           authentication" stays); the value after key=, key: or
//	           "key": when the key ends in password, passwd, passphrase,
//	           pwd, token, secret, credential(s), apikey, api_key, api-key,
//	           access_key, accesskey, secret_key, secretkey, private_key,
//	           privatekey, client_secret, auth or cookie (any case);
//	           "user:password" before an '@' (connection strings without
//	           a scheme); runs of 32 or more hex digits; runs of 40 or
//	           more base64/base64url characters holding both upper- and
//	           lower-case letters; and JWT-shaped eyJ....x.y strings
//	[hidden]   each Options.Hide string (exact, case-sensitive)
//
// Overlapping findings merge into one placeholder. A finding is a word
// only when no letter or digit touches it: punctuation around it ("_",
// "-", "(", "@", quotes) never saves it, while "Forbearer x" or
// "xeyJ..." are other words and stay.
//
// # Decisions
//
//   - A dotted name without a port or scheme (my.app, spec.chat.channel,
//     example.com) is not hidden: Kubernetes names and field paths look
//     exactly like host names, and hiding them would make every message
//     useless. A host shows only when it has neither scheme nor port.
//   - A time such as 2026-11-30T10:00:00Z is not host:port (the part before
//     ':' has no dot) and not IPv6 (it is glued to a letter and has too few
//     groups). Version strings (1.0, v0.37.2) survive; a four-part version
//     such as 1.2.3.4 cannot be told from an IPv4 address and is hidden.
//   - A base64 run needs both upper- and lower-case letters to count:
//     long Kubernetes names (lower case, digits, dashes) are 40 characters
//     often enough, while random base64 of that length lacks one of the
//     two cases less than once in 500 million. Hex runs need no such
//     rule; 32 digits in a row, decimal ones included, are hidden.
//   - Any token after "Bearer" is hidden, however short; after "Basic"
//     only one shaped like a credential, since "basic" is an English word.
//   - A secret key with a ':' hides even an innocent value: "token:
//     required" becomes "token: [secret]". Erring towards hiding is the
//     point of the package.
//   - Line breaks, tabs, other control characters, Unicode spaces, line and
//     paragraph separators and invisible format characters (bidi controls,
//     zero-width characters) each become a space; runs of spaces become one
//     and the ends are trimmed. Each run of invalid UTF-8 bytes becomes one
//     U+FFFD.
//   - Hide strings get the same cleanup before matching. Those shorter than
//     3 bytes are ignored (they would shred ordinary words), and so is "…"
//     itself, which ends every cut message. An occurrence that lies wholly
//     inside a placeholder ("secret" in "[secret]") is the package's own
//     text and stays; everywhere else a Hide string is hidden, including
//     where it spans a placeholder and its neighbours.
//   - Placeholders already in the input are kept as they are; a finding
//     that covers part of one covers all of it.
//   - A cut never ends inside a placeholder and never creates a new finding:
//     when the shortened text would match something the whole did not
//     (1.2.3.45 cut to 1.2.3.4), the cut moves further back.
//   - A MaxBytes too small to hold "…" (1 or 2) cuts an over-long message
//     to the empty string.
//   - Work is linear in the input. The whole input is scanned, even when
//     most of it will be cut, so that a finding straddling the cut is
//     always seen whole and never shows its first half. Each Hide string
//     is searched for separately, so the cost grows with their number too.
//   - The scanners are hand-written byte loops over a class table rather
//     than regular expressions: a clean message must come back without a
//     single allocation, and every scanner's back-up stops where the
//     previous one ended, so no input makes the work quadratic.
package redact
