package redact

import "strings"

// Names reports whether the reader of a message already sees an object
// by the name n: a name, a namespace, or "namespace/name" (NamesObject
// answers for one object). It is how a whole message, once written, can
// be redacted again without hiding the names its builder passed through
// Name: the message keeps no mark of where a name was, but the caller
// knows which objects the reader sees.
//
// A nil Names sees no name: Names(nil).Message is Message.
type Names func(n string) bool

// Message returns s as the package's Message does, except that a finding
// made by its shape alone (an address, a long hex run, a token prefix)
// that lies inside a name the reader sees is left as written. The name is
// the run of name bytes (a-z, 0-9, '-', '.', '/') around the finding,
// without trailing dots, and n is asked about the part of it between
// slashes that holds the finding and, when the run is one
// "namespace/name", about the pair. A value found by the words around it
// (after password=, Bearer or "the password is") is hidden whatever it
// reads as. Only text equal to a name n sees is ever kept, so the result
// shows nothing that the reader does not see already.
//
// n.Message(n.Message(s)) == n.Message(s) for every s, as long as n
// answers the same. It is the pass for a message kept from a stored
// condition: a message the engine wrote comes back as it was, and text
// that someone else put there is redacted like any text from elsewhere.
func (n Names) Message(s string) string { return message(s, DefaultMaxBytes, n) }

// NamesObject reports whether n names the object namespace/name as Names
// is asked about it: the pair, the name, or the namespace.
func NamesObject(n, namespace, name string) bool {
	if n == "" {
		return false
	}
	if n == name || n == namespace {
		return true
	}
	return len(n) == len(namespace)+1+len(name) && n[len(namespace)] == '/' &&
		strings.HasPrefix(n, namespace) && strings.HasSuffix(n, name)
}

// nameByte reports whether c may be part of a Kubernetes object name or
// of a "namespace/name" pair.
func nameByte(c byte) bool {
	return isDigit(c) || ('a' <= c && c <= 'z') || c == '-' || c == '.' || c == '/'
}

// seenFilter drops, in place, the findings of one rule that lie inside a
// name n sees. It remembers the last name run it looked at, since the
// findings of one rule come in order, so every run is read once per rule.
type seenFilter struct {
	n          Names
	runA, runB int  // the last run, [runA, runB)
	pairSeen   bool // whether n sees the run as one namespace/name pair
	partA      int  // the part of the run last asked about, [partA, partB)
	partB      int
	partSeen   bool
}

func (f *seenFilter) filter(s string, spans []span) []span {
	out := spans[:0]
	for _, sp := range spans {
		if !f.sees(s, sp) {
			out = append(out, sp)
		}
	}
	return out
}

// sees reports whether sp lies inside a name the reader sees.
func (f *seenFilter) sees(s string, sp span) bool {
	if sp.start >= sp.end {
		return false
	}
	for i := sp.start; i < sp.end; i++ {
		if !nameByte(s[i]) {
			return false
		}
	}
	if sp.start < f.runA || sp.end > f.runB {
		a, b := sp.start, sp.end
		for a > 0 && nameByte(s[a-1]) {
			a--
		}
		for b < len(s) && nameByte(s[b]) {
			b++
		}
		for b > sp.end && s[b-1] == '.' {
			b-- // a full stop after the name
		}
		f.runA, f.runB = a, b
		run := s[a:b]
		slash := strings.IndexByte(run, '/')
		f.pairSeen = slash > 0 && slash < len(run)-1 && strings.IndexByte(run[slash+1:], '/') < 0 && f.n(run)
		f.partA, f.partB = 0, 0
	}
	if f.pairSeen {
		return true
	}
	if sp.start < f.partA || sp.end > f.partB {
		a, b := sp.start, sp.end
		for a > f.runA && s[a-1] != '/' {
			a--
		}
		for b < f.runB && s[b] != '/' {
			b++
		}
		f.partA, f.partB = a, b
		f.partSeen = strings.IndexByte(s[a:b], '/') < 0 && f.n(s[a:b])
	}
	return f.partSeen
}
