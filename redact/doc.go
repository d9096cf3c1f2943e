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
// elsewhere that went through Message one by one. [Name] is the part for
// the name of an object the reader may see: it is shown as written when
// it has the shape of a Kubernetes name, so only free text from outside
// (probe errors, URLs, other objects' values) is ever redacted.
// [Names.Message] redacts a whole message again, one kept from a stored
// condition, where the parts can no longer be told apart: the caller says
// which names the reader sees, and only text equal to one of them is left
// as written, so a message the engine wrote comes back unchanged and text
// someone else put there is hidden.
//
// # What is hidden, and by what
//
// One named rule per family, in the table in rules.go; each has positive
// and negative examples in rules_test.go.
//
//	[url]      url: scheme://anything up to white space or a quote;
//	           url-percent-encoded: scheme%3A%2F%2F... (any case)
//	[address]  ipv4, ipv6: literals (bracketed, with zone, with port);
//	           host-port: host:port where the host has a dot or is
//	           localhost, a dotless service name that starts with a
//	           letter (redis-master:6379) with a port of 2 or more
//	           digits, and a bare :port after white space, '(', '=',
//	           ',' or a quote;
//	           host-port-percent-encoded: the same with the colon
//	           written %3A (db.internal.corp%3A5432);
//	           ipv4-decimal: an address written as one decimal number
//	           (167772167 for 10.0.0.7) before a port, after "//" or
//	           '@', or after host, ip, addr, address, dial, tcp, ...;
//	           ipv4-hex-octal: a dotted address with a hex or long octal
//	           part (0x0a.0.0.7, 0300.0250.0.01) anywhere, and one hex
//	           or octal number (0x0a000007, 01200000007) where
//	           ipv4-decimal would read a decimal one;
//	           ipv6-percent-encoded: an IPv6 literal with its colons or
//	           brackets written %3A, %5B, %5D (fe80%3A%3A1), with its
//	           zone (%25eth0) when one follows
//	[email]    email: local@domain.tld and local@localhost
//	[secret]   auth-scheme: the token after "Bearer " (any case) and a
//	           base64 credential after "Basic " (8 or more characters with
//	           a digit, '+', '/', '=' or an inner capital, so "basic
//	           authentication" stays);
//	           key-value: the value after key=, key: or "key": when the
//	           key ends in password, passwd, passphrase, pwd, pw, token,
//	           secret, credential(s), apikey, api_key, api-key,
//	           access_key, accesskey, accountkey, secret_key, secretkey, private_key,
//	           privatekey, client_secret, auth, cookie or signature
//	           (any case), or is pass or sig whole or after '_', '-' or
//	           '.' (db_pass, x-sig, but not bypass); a key spelled with
//	           look-alike Cyrillic or Greek letters (pаssword) counts; and
//	           "user:password" before an '@'; a bare value ends at white
//	           space, a quote or backquote, '&', ';', ',' or a closing
//	           bracket it did not open, and what follows is shown
//	           ("password=x&user=bob" keeps "&user=bob");
//	           password-phrase: the word after "password is" (or was;
//	           also passwd, passphrase, pwd, pw, token, secret, api key);
//	           connection-string: in Name=value fields, the whole value of
//	           AccountKey, SharedAccessKey and SharedAccessSignature (up to
//	           the next ';', so a signature's '&' fields go with it), and
//	           as [address] that of AccountName, EndpointSuffix and
//	           Blob-, Queue-, Table- and FileEndpoint (the host's parts);
//	           slack-token (xoxb-, xoxp-, xoxa-, xoxo-, xoxr-, xoxs-,
//	           xoxe-, xapp-), aws-access-key-id (AKIA, ASIA and the other
//	           IAM ID prefixes, 16 capitals or digits), github-token
//	           (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_), stripe-key
//	           (sk_/rk_ live/test), gitlab-token (glpat-, glptt-, gldt-,
//	           glrt-, gloas-), google-api-key (AIza + 35),
//	           huggingface-token (hf_ + 30 or more letters and digits),
//	           square-token (sq0atp-, sq0csp- + 22 or more);
//	           pem-block: -----BEGIN ... through its -----END line, or to
//	           the end of a cut message;
//	           long-run: 32 or more hex digits, 40 or more base64 with
//	           both cases, and 12 to 39 base64 characters with both cases
//	           that read as random, not as words (two CamelCase segments
//	           or more for every five characters); jwt: eyJ....x.y
//
// # Measured on a labelled corpus
//
// corpus_test.go holds 45 texts carrying a secret, an address or a
// credential-bearing URL (one of each family above, as probes, jobs and
// APIs print them) and 46 lines of ordinary operator text (condition
// messages, field paths, versions, times, large counts, CamelCase
// reasons, generated pod names, "token: required", "the password is
// required"). Recall is 45/45 (every planted secret hidden) and the
// false-positive rate 0/46 (every ordinary line unchanged). The
// test fails when either figure changes, so this paragraph stays true.
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
//   - A dotless name before a port (redis-master:6379, echo:8080) is a
//     service address and hidden, unless the name is a word a number
//     follows in ordinary messages (line, col, step, retry, exit, code,
//     status, ...) or the port has one digit (step:3).
//   - A time such as 2026-11-30T10:00:00Z is not host:port (the part before
//     ':' has no dot) and not IPv6 (it is glued to a letter and has too few
//     groups). Version strings (1.0, v0.37.2) survive. A four-part number
//     is an address, except right after v or after release-, version-,
//     ver-, rel-, tag-, build-, chart-, image- or app- (or _), where it
//     is a version: release-1.2.3.4 stays, node-10.0.0.7 does not.
//   - A base64 run needs both upper- and lower-case letters to count:
//     long Kubernetes names (lower case, digits, dashes) are 40 characters
//     often enough, while random base64 of that length lacks one of the
//     two cases less than once in 500 million. Hex runs need no such
//     rule; 32 digits in a row, decimal ones included, are hidden.
//   - From 12 to 39 characters, both cases are not enough: CamelCase
//     identifiers (ObservedGeneration) have them. A token that short is
//     hidden when it also splits into at least two CamelCase segments
//     for every five characters, which random base64 does more than nine
//     times in ten (TestShortToken_RecallOnRandomTokens) and words do
//     not. A Kubernetes name has no capital and is never one.
//   - A bare secret value (after key=, "Bearer" or "password is") ends
//     at the first byte that separates fields in the texts that carry
//     such values: white space, a quote or backquote, '&' and ';' (query
//     strings, cookies), ',' (lists) and a closing bracket the value did
//     not open. Every other byte ('.', ':', '/', '+', '%', '=', '|', a
//     balanced bracket pair) may belong to a secret and is hidden with
//     it, so "token=abc." loses its period rather than risk a tail.
//   - An address written as one decimal number is hidden only where an
//     address stands (before a port, after "//" or '@', after a word
//     such as host, addr or dial) and only from 16777216 to 4294967295:
//     the same digits elsewhere are a generation, a price or a count, and
//     hiding every 8-to-10-digit number would blank those. Hexadecimal
//     and octal address forms (0xA000007) are not looked for.
//   - Letters of other scripts that read as ASCII ones (Cyrillic а, е, о,
//     р, с; Greek ο, ρ; the table confusables) are folded only where a
//     key is read, so a key cannot hide behind them; the message keeps
//     them as written, and a word of another script stays a word.
//   - Any token after "Bearer" is hidden, however short; after "Basic"
//     only one shaped like a credential, since "basic" is an English word.
//   - After "key: " (a colon and a space, as prose writes it) or "password
//     is", a value that is an ordinary word (required, missing, must, not,
//     set, revoked, ... the list proseWords) stays, with its trailing
//     punctuation: "token: required; secret: must be set" is unchanged.
//     Any other value is hidden, an unknown lower-case word included, and
//     after "key=" or a quoted key every value is: that is machine text.
//   - Full-width forms of ASCII (U+FF01 to U+FF5E) are folded to ASCII
//     before scanning, as NFKC folds them, so "１０．０．０．７:８４４３" is
//     hidden like 10.0.0.7:8443. Full-width text that hides nothing comes
//     back in ASCII.
//   - Line breaks, tabs, other control characters, Unicode spaces, line and
//     paragraph separators and invisible format characters (bidi controls,
//     zero-width characters) each become a space; runs of spaces become one
//     and the ends are trimmed. Each run of invalid UTF-8 bytes becomes one
//     U+FFFD.
//   - Placeholders already in the input are kept as they are; a finding
//     that covers part of one covers all of it.
//   - A cut never ends inside a placeholder and never creates a new finding:
//     when the shortened text would match something the whole did not
//     (1.2.3.45 cut to 1.2.3.4), the cut moves further back.
//   - Work is linear in the input. The whole input is scanned, even when
//     most of it will be cut, so that a finding straddling the cut is
//     always seen whole and never shows its first half.
//   - The scanners are hand-written byte loops over a class table rather
//     than regular expressions: a clean message must come back without a
//     single allocation, and every scanner's back-up stops where the
//     previous one ended, so no input makes the work quadratic.
package redact
