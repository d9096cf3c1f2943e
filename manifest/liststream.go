package manifest

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A JSON List is read one item at a time: `kubectl get -o json` prints
// 136 MB for 100k Bindings, more than one document may hold, and a
// caller that keeps the objects need not keep their text as well. While
// a section is read, a scan of its top-level keys looks for an "items"
// key whose value is an array; from there on each item is kept in a
// buffer of its own, bounded by Limits.Document, and handed to the
// caller as a document of its own (Item "items[i]"), while the
// section's buffer keeps the List without its items: the other keys as
// written, and one newline for each line the items took, so that a line
// found in it is the input's. kubectl prints the List's kind after its
// items, so the items are read before the kind is known; when the
// section ends, the List's own keys are checked as a whole document's
// are, and a document whose kind is not a List's is refused there
// (docs/decisions/list-item-by-item.md).
//
// Only what JSON's structure needs is scanned here: strings, escapes,
// nesting. Each item is checked as JSON on its own (itemJSON), the
// List's own keys at the end (endList), and the separators between the
// items, which neither sees, here.

// scanState is where the scan of a section's top-level JSON object is.
type scanState uint8

const (
	scanStart    scanState = iota // before the object's {
	scanKeyNext                   // after { or a comma: a key
	scanKey                       // inside a key
	scanColon                     // after a key
	scanValue                     // after the colon
	scanString                    // inside a string value
	scanNested                    // inside an object or array value
	scanLiteral                   // inside a number, true, false or null
	scanNext                      // after a value: a comma or }
	scanItem                      // inside the items array, before an item or ]
	scanItemNext                  // after an item: a comma or ]
	scanInItem                    // inside an item
	scanRest                      // the rest of the section is kept as it is
)

// keyClass says which of the keys the scan looks for a top-level key is.
type keyClass uint8

const (
	keyOther keyClass = iota
	keyItems
	keyKind
)

// kindClass is what the scan knows of the top-level kind.
type kindClass uint8

const (
	kindUnknown kindClass = iota // not read yet
	kindList                     // a string that ends in List
	kindOther                    // anything else
)

// listScan is the scan of one section's top-level JSON object.
type listScan struct {
	st    scanState
	depth int  // nesting inside a value or an item
	inStr bool // inside a string of a value or an item
	esc   bool // after a backslash inside a string
	lit   bool // the item being read is a number, true, false or null
	at    int  // offset in the section's buffer of the key or string value
	key   keyClass
	kind  kindClass
	// streamed says that the items are read one at a time.
	streamed bool
	// comma says that a comma came since the last item.
	comma bool
	// n counts the items started.
	n int
	// line is the line of the input the current item starts on.
	line int
}

// inItems reports whether the scan is inside the streamed items array.
func (s *listScan) inItems() bool {
	return s.st == scanItem || s.st == scanItemNext || s.st == scanInItem
}

// item is the place of the current item, "items[i]".
func (s *listScan) item() string {
	p := s.itemPath()
	return p[:len(p)-1]
}

// itemPath is the field path of the item's fields, "items[N].": the
// item's place and its dot in one string.
func (s *listScan) itemPath() string {
	var b [32]byte
	return string(append(strconv.AppendInt(append(b[:0], "items["...), int64(s.n-1), 10), "]."...))
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// feed reads the bytes b of the current section. It returns how many it
// used, and true when they end an item, which is then in r.item; after
// an error, which ends the reading, the count means nothing.
func (r *Reader) feed(b []byte) (int, bool, error) {
	used := 0
	for used < len(b) {
		var n int
		var item bool
		var err error
		if r.scan.inItems() {
			n, item, err = r.feedItems(b[used:])
		} else {
			n, err = r.feedTop(b[used:])
		}
		used += n
		if err != nil || item {
			return used, item, err
		}
	}
	return used, false, nil
}

// waits is, for each state that waits for one character past white
// space, that character and the state it leads to; any other character
// leaves the rest of the section as it is.
var waits = [...]struct {
	c    byte
	next scanState
}{
	scanStart:   {'{', scanKeyNext},
	scanKeyNext: {'"', scanKey},
	scanColon:   {':', scanValue},
	scanNext:    {',', scanKeyNext},
}

// feedTop scans the List's own keys and values, all kept in r.buf. It
// stops past the [ of an items array that is to be read item by item.
func (r *Reader) feedTop(b []byte) (int, error) {
	s := &r.scan
	from := 0 // b[from:] is not yet in r.buf
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch s.st {
		case scanStart, scanKeyNext, scanColon, scanNext:
			if isSpace(c) {
				break
			}
			w := waits[s.st]
			if c != w.c { // } or what is not JSON: the end's checks see to it
				s.st = scanRest
				break
			}
			s.st = w.next
			if c == '"' {
				s.at, s.esc = len(r.buf)+i-from, false
			}
		case scanKey, scanString:
			if s.stringEnds(c) {
				if err := r.keep(b[from : i+1]); err != nil {
					return 0, err
				}
				from = i + 1
				text := r.buf[s.at:]
				if s.st == scanKey {
					s.key, s.st = classOf(text), scanColon
					break
				}
				if s.key == keyKind {
					s.kind = kindOther
					if isListKind(text) {
						s.kind = kindList
					}
				}
				s.st = scanNext
			}
		case scanValue:
			if isSpace(c) {
				break
			}
			if c == '[' && s.key == keyItems && !s.streamed && s.kind != kindOther {
				s.streamed, s.st, s.comma = true, scanItem, false
				return i + 1, r.keep(b[from : i+1])
			}
			if s.key == keyKind && c != '"' {
				s.kind = kindOther
			}
			switch c {
			case '"':
				s.st, s.at, s.esc = scanString, len(r.buf)+i-from, false
			case '{', '[':
				s.st, s.depth, s.inStr, s.esc = scanNested, 1, false, false
			default:
				s.st = scanLiteral
			}
		case scanNested:
			if s.inStr {
				s.inStr = !s.stringEnds(c)
				break
			}
			switch c {
			case '"':
				s.inStr = true
			case '{', '[':
				s.depth++
			case '}', ']':
				if s.depth--; s.depth == 0 {
					s.st = scanNext
				}
			}
		case scanLiteral:
			if isSpace(c) || c == ',' || c == '}' {
				s.st = scanNext
				i-- // the byte ends the literal and is read again
			}
		case scanRest:
			return len(b), r.keep(b[from:])
		}
	}
	return len(b), r.keep(b[from:])
}

// feedItems reads the items array: the separators are checked and
// dropped (their newlines kept in r.buf), each item is gathered in
// r.item, and the closing ] goes back to r.buf. It stops past an item's
// last byte, reporting true, or past the ].
func (r *Reader) feedItems(b []byte) (int, bool, error) {
	s := &r.scan
	for i := 0; i < len(b); {
		if s.st == scanInItem {
			n, done := s.itemEnd(b[i:])
			if err := r.keepItem(b[i : i+n]); err != nil {
				return 0, false, err
			}
			i += n
			if done {
				s.st = scanItemNext
				return i, true, nil
			}
			continue
		}
		c := b[i]
		switch {
		case c == '\n':
			if err := r.keep(b[i : i+1]); err != nil {
				return 0, false, err
			}
		case isSpace(c):
		case s.st == scanItemNext && c == ',':
			s.st, s.comma = scanItem, true
		case c == ']' && (s.st == scanItemNext || !s.comma):
			s.st = scanNext
			return i + 1, false, r.keep(b[i : i+1])
		case s.st == scanItem && c != ']' && c != '}' && c != ',' && c != ':':
			s.st, s.depth, s.inStr, s.esc, s.lit = scanInItem, 0, false, false, false
			s.n++
			s.line = r.chunkLine
			r.item = r.item[:0]
			continue // the byte is the item's first
		default:
			before := "[0,"
			if s.st == scanItemNext {
				before = "[0"
			}
			return 0, false, &DocumentError{File: r.File, Index: r.n + 1, Line: r.chunkLine, Err: syntaxError(before, c)}
		}
		i++
	}
	return len(b), false, nil
}

// stringEnds reads the byte c of a string and reports whether it is the
// closing quote.
func (s *listScan) stringEnds(c byte) bool {
	switch {
	case s.esc:
		s.esc = false
	case c == '\\':
		s.esc = true
	case c == '"':
		return true
	}
	return false
}

// itemEnd scans b, the continuation of an item, and returns how much of
// it is the item's and whether the item ends there.
func (s *listScan) itemEnd(b []byte) (int, bool) {
	for i, c := range b {
		switch {
		case s.inStr:
			if s.stringEnds(c) {
				s.inStr = false
				if s.depth == 0 {
					return i + 1, true
				}
			}
		case s.lit:
			if isSpace(c) || c == ',' || c == ']' || c == '}' {
				return i, true
			}
		case c == '"':
			s.inStr = true
		case c == '{' || c == '[':
			s.depth++
		case c == '}' || c == ']':
			if s.depth--; s.depth <= 0 {
				return i + 1, true
			}
		case s.depth == 0:
			s.lit = true
		}
	}
	return len(b), false
}

// keep adds b to the section's buffer, within Limits.Document.
func (r *Reader) keep(b []byte) error {
	if int64(len(r.buf)+len(b)) > r.Limits.Document {
		return &DocumentError{File: r.File, Index: r.n + 1, Line: r.start,
			Err: &LimitError{Limit: "MaxDocumentBytes", Bytes: r.Limits.Document}}
	}
	r.buf = grow(r.buf, len(b), r.Limits.Document)
	r.buf = append(r.buf, b...)
	return nil
}

// keepItem adds b to the current item, within Limits.Document, and a
// newline to the section's buffer for each of b's.
func (r *Reader) keepItem(b []byte) error {
	if int64(len(r.item)+len(b)) > r.Limits.Document {
		return &DocumentError{File: r.File, Index: r.n + 1, Item: r.scan.item(), Line: r.scan.line,
			Err: &LimitError{Limit: "MaxDocumentBytes", Bytes: r.Limits.Document}}
	}
	r.item = grow(r.item, len(b), r.Limits.Document)
	r.item = append(r.item, b...)
	for range bytes.Count(b, []byte("\n")) {
		if err := r.keep([]byte("\n")); err != nil {
			return err
		}
	}
	return nil
}

// syntaxError is encoding/json's word for the byte c after the JSON
// text before, which is how the items array is read at that point.
func syntaxError(before string, c byte) error {
	_, err := notJSON(append([]byte(before), c))
	return err
}

// classOf says which key the quoted key is, its escapes decoded.
func classOf(quoted []byte) keyClass {
	switch {
	case isItemsKey(quoted):
		return keyItems
	case bytes.Equal(quoted, []byte(`"kind"`)):
		return keyKind
	case bytes.ContainsRune(quoted, '\\'):
		var k string
		if json.Unmarshal(quoted, &k) == nil && k == "kind" {
			return keyKind
		}
	}
	return keyOther
}

// isListKind reports whether the quoted kind may name a List (see
// Header.IsList; whether the List has a name is seen at the end).
func isListKind(quoted []byte) bool {
	var k string
	return json.Unmarshal(quoted, &k) == nil && strings.HasSuffix(k, "List")
}

// itemDocument is the document of the item just read.
func (r *Reader) itemDocument() *Document {
	p := r.scan.itemPath()
	return &Document{File: r.File, Index: r.n + 1, Item: p[:len(p)-1], Line: r.scan.line,
		source: r.item, sourceLine: r.scan.line, path: p, base: p, depth: 1}
}

// itemJSON checks the text of a List item, read on its own, as toJSON
// checks a JSON document: valid UTF-8, valid JSON, no key given twice.
// An error is the List's, as it would be were the List read whole: its
// field path starts with the item's place.
func (r *Reader) itemJSON(d *Document, t []byte) error {
	fail := func(line int, err error) error {
		return (&Document{File: d.File, Index: d.Index, Line: line}).Fail(err)
	}
	if !utf8.Valid(t) {
		off := invalidUTF8(t)
		problem := "not valid UTF-8 (byte 0x" + strconv.FormatUint(uint64(t[off]), 16) + "); save the file as UTF-8"
		return fail(d.Line+bytes.Count(t[:off], []byte("\n")), &fieldError{path: within(d.Item, pathAt(t, off)), problem: problem})
	}
	if !json.Valid(t) {
		off, err := notJSON(t)
		return fail(d.Line+bytes.Count(t[:off], []byte("\n")), err)
	}
	fe, folded := jsonDuplicate(t, d.Line)
	if fe != nil {
		fe.path = within(d.Item, fe.path)
		return fail(fe.line, fe)
	}
	d.JSON, d.keys = bytes.Clone(t), keyStateOf(folded)
	return nil
}

// within is the path p inside the List item at place.
func within(place, p string) string {
	switch {
	case p == "":
		return place
	case p[0] == '[':
		return place + p
	}
	return place + "." + p
}

// endList checks what is left of a List read item by item, its text
// without the items, once the section has ended: that it is valid JSON
// with no key given twice, and that it is a List, as Expand checks a List
// read whole.
func (r *Reader) endList(text []byte, start int) error {
	d := &Document{File: r.File, Index: r.n, Line: start, source: text, sourceLine: start}
	js, folded, line, err := toJSON(text, start)
	if err != nil {
		if line > 0 {
			d.Line = start + line - 1
		}
		return d.Fail(err)
	}
	d.JSON, d.keys = js, keyStateOf(folded)
	h, err := d.Identify()
	if err != nil {
		return d.Fail(err)
	}
	if !h.IsList() {
		d.Header = nil // the items were not this object's
		return d.FailAt("kind", notAList(h))
	}
	return nil
}

// isItemsKey reports whether the quoted key reads "items", escapes
// decoded.
func isItemsKey(quoted []byte) bool {
	if bytes.Equal(quoted, []byte(`"items"`)) {
		return true
	}
	if !bytes.ContainsRune(quoted, '\\') {
		return false
	}
	var k string
	return json.Unmarshal(quoted, &k) == nil && k == "items"
}
