package redact

// Name returns the name of an object the reader of the message may see,
// or its "namespace/name", as written: the object's own name, its
// references as it wrote them, or another object of its namespace. Such a
// name is not text from elsewhere, and hiding a part of it (a Binding
// named with 32 hex digits, a target named backup-10.0.0.7) only makes
// the message wrong.
//
// The name is shown only when it has the shape of a Kubernetes object
// name: lower-case letters, digits, '-' and '.', at most 253 bytes, with
// at most one '/' between two such parts. Anything else cannot have come
// from the API server as a name, so it is treated as free text and goes
// through Message. A name of another namespace's object that the reader
// was not given must never be passed here: it is not shown at all.
func Name(s string) string {
	if isObjectName(s) {
		return s
	}
	return Message(s)
}

// maxNameLen is the longest Kubernetes object name (a DNS subdomain).
const maxNameLen = 253

// isObjectName reports whether s is one or two name parts joined by '/',
// each of 1 to maxNameLen bytes of a-z, 0-9, '-' and '.'.
func isObjectName(s string) bool {
	part := 0
	slashes := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '/':
			if part == 0 || slashes == 1 {
				return false
			}
			slashes++
			part = 0
		case isDigit(c) || ('a' <= c && c <= 'z') || c == '-' || c == '.':
			part++
			if part > maxNameLen {
				return false
			}
		default:
			return false
		}
	}
	return part > 0
}
