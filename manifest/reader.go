package manifest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"

	"github.com/condengine/condengine/redact"
)

// Document is one manifest of a stream, with where it came from, so that
// every problem with it can be reported at its place.
type Document struct {
	// File is the reader's File.
	File string
	// Index is the document's number in the stream, counting from 1.
	Index int
	// Item is the place inside a List, "items[2]" or
	// "items[2].items[0]"; "" for a whole document.
	Item string
	// Line is the line of the input the document starts on, from 1.
	Line int
	// JSON is the document converted to JSON. It is the caller's.
	JSON json.RawMessage
	// Header is the document's identity once Identify has read it.
	Header *Header

	// source is the document as written, YAML or JSON, for finding the
	// line of a field; it is shared with the Reader and valid until the
	// next call of Next.
	source []byte
	// path is Item followed by a dot, the prefix of the document's
	// fields inside source.
	path string
	// base is the part of path that source starts at: "" when source is
	// the whole document, "items[i]." for an item of a List read item by
	// item, whose source is the item alone.
	base string
	// sourceLine is the line of the input source starts on.
	sourceLine int
	// depth is how many Lists the document is inside.
	depth int
	// keys says whether some mapping of JSON holds two keys that differ
	// only in case, which the type it is read into may take as one field
	// given twice (see repeatedField); unscanned until a reader scans it.
	keys keyState
}

// keyState is what a scan of a document's keys found.
type keyState uint8

const (
	keysUnscanned keyState = iota
	keysDistinct           // no two keys of a mapping differ only in case
	keysFolded             // some two do
)

// keyStateOf is the keyState of a scan's folded result.
func keyStateOf(f bool) keyState {
	if f {
		return keysFolded
	}
	return keysDistinct
}

// Reader yields the documents of a YAML or JSON stream one at a time, as
// JSON, so the whole input is never held at once. It enforces Limits as
// it reads: a document longer than Limits.Document or a stream longer
// than Limits.Stream is refused before it is held, so an endless input
// fails with a LimitError after at most Limits.Stream bytes and holds at
// most one document. Empty, comment-only and null documents are skipped
// but counted. A JSON List (a document that is a JSON object with an
// "items" array, its kind List or ending in List, or not yet given when
// the items come, as kubectl prints it) is returned item by item, each a
// document of its own with Item "items[i]", so that only one item's text
// is held at a time and each item is bounded by Limits.Document, the
// List by Limits.Stream; a document with an items list whose kind names
// no List is an error at its kind, here or in Expand. Other Lists, YAML
// ones among them, are returned whole (see Expand). A lone CR ends a
// line as LF does, and a byte order mark before a document is passed
// over.
type Reader struct {
	// File names the input in every error; set it before the first Next.
	File string
	// Limits bounds the input; set it before the first Next. The zero
	// value means MaxDocumentBytes and MaxStreamBytes.
	Limits Limits
	// Sized, when set, is told each document's size in bytes once it is
	// read and before it is converted: converting a YAML document takes
	// many times its size for a moment, which a caller that budgets
	// memory (`condengine eval`) makes room for.
	Sized func(bytes int)

	in    io.Reader
	br    *bufio.Reader
	buf   []byte // the document being read, reused; a List read item by item without its items
	item  []byte // the List item being read, reused
	pend  []byte // the rest of the last line read, past the item just read
	read  int64  // bytes of the stream consumed
	lines int    // lines of the stream consumed
	n     int    // documents started
	err   error  // sticky: the first error, or io.EOF

	// The section being read (see section).
	open      bool     // a section is being read
	start     int      // the line it starts on
	lineStart bool     // the next byte read starts a line
	seen      bool     // a byte of the section was read
	eof       bool     // the stream has ended
	chunkLine int      // the line of the bytes in pend
	scan      listScan // the scan of its top-level JSON object

	types typeNames // the apiVersions and kinds of the objects decoded straight
}

// NewReader reads manifests from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{in: r}
}

// Next returns the next non-empty document, or io.EOF at the end. Any
// other error is a *DocumentError; after one, Next returns it again.
func (r *Reader) Next() (*Document, error) {
	d, _, err := r.next(nil)
	return d, err
}

// next is Next; when typed is set, it is offered each document that
// reads as a JSON object (valid, no key given twice) before the
// document is converted, as its trimmed text, and a document it takes
// is returned as it is, with true.
func (r *Reader) next(typed func(d *Document, t []byte) bool) (*Document, bool, error) {
	if r.err != nil {
		return nil, false, r.err
	}
	if r.br == nil {
		r.Limits = r.Limits.withDefaults()
		// One byte past the limit tells a stream at the limit from one
		// beyond it, and nothing further is ever read.
		r.br = bufio.NewReaderSize(newCRReader(io.LimitReader(r.in, r.Limits.Stream+1)), 64<<10)
	}
	for {
		text, start, item, err := r.section()
		if err != nil {
			r.err = err
			return nil, false, err
		}
		if item {
			d := r.itemDocument()
			if r.Sized != nil {
				r.Sized(len(text))
			}
			if typed != nil && typed(d, text) {
				return d, true, nil
			}
			if err := r.itemJSON(d, text); err != nil {
				r.err = err
				return nil, false, err
			}
			return d, false, nil
		}
		if text == nil {
			r.err = io.EOF
			return nil, false, io.EOF
		}
		if r.scan.streamed {
			if err := r.endList(text, start); err != nil {
				r.err = err
				return nil, false, err
			}
			continue
		}
		d := &Document{File: r.File, Index: r.n, Line: start, source: text, sourceLine: start}
		if r.Sized != nil {
			r.Sized(len(text))
		}
		if typed != nil && typed(d, bytes.TrimSpace(text)) {
			return d, true, nil
		}
		js, folded, line, err := toJSON(text, start)
		if err != nil {
			if line > 0 {
				d.Line = start + line - 1
			}
			r.err = d.Fail(err)
			return nil, false, r.err
		}
		if js == nil {
			continue
		}
		d.JSON, d.keys = js, keyStateOf(folded)
		return d, false, nil
	}
}

// section reads on in the current section, the text up to the next ---
// line or the end. It returns the section's text when it ends, nil at
// the end of the stream, and, with true, each item of a List the section
// holds as it is read (see listScan), the section's text then being the
// List without its items.
func (r *Reader) section() (text []byte, start int, item bool, err error) {
	if !r.open {
		// The previous document is no longer the caller's. A buffer
		// grown for a large one is let go rather than held to the end
		// of the stream, when its objects and their evaluation need the
		// room.
		if cap(r.buf) > maxKeptBuffer {
			r.buf = nil
		}
		if cap(r.item) > maxKeptBuffer {
			r.item = nil
		}
		r.buf = r.buf[:0]
		r.open, r.start, r.lineStart, r.seen, r.scan = true, r.lines+1, true, false, listScan{}
	}
	for {
		if len(r.pend) > 0 {
			n, item, err := r.feed(r.pend)
			r.pend = r.pend[n:]
			if err != nil {
				return nil, r.start, false, err
			}
			if item {
				return r.item, r.scan.line, true, nil
			}
			continue
		}
		if r.eof {
			r.open = false
			if !r.seen {
				return nil, r.start, false, nil
			}
			return r.end()
		}
		chunk, err := r.br.ReadSlice('\n')
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) && !errors.Is(err, io.EOF) {
			return nil, r.start, false, &DocumentError{File: r.File, Index: r.n + 1, Line: r.lines + 1, Err: err}
		}
		r.read += int64(len(chunk))
		if r.read > r.Limits.Stream {
			return nil, r.start, false, &DocumentError{File: r.File, Index: r.n + 1, Line: r.lines + 1,
				Err: &LimitError{Limit: "MaxStreamBytes", Bytes: r.Limits.Stream}}
		}
		r.eof = errors.Is(err, io.EOF)
		if r.lineStart && r.lines+1 == r.start && bytes.HasPrefix(chunk, bom) {
			// A byte order mark before a document is no part of it.
			chunk = chunk[len(bom):]
		}
		whole := r.lineStart && !errors.Is(err, bufio.ErrBufferFull)
		if whole && bytes.HasPrefix(chunk, separator) {
			rest := bytes.TrimSpace(chunk[len(separator):])
			if len(rest) > 0 && rest[0] != '#' {
				return nil, r.start, false, &DocumentError{File: r.File, Index: r.n + 1, Line: r.lines + 1,
					Err: fmt.Errorf("text after the --- separator: %q", clip(rest))}
			}
			r.lines++
			if r.n > 0 || r.scan.streamed || !blank(r.buf) {
				r.open = false
				return r.end()
			}
			// Text before a file's first --- that holds nothing (a
			// comment header) is not a document of its own.
			r.buf = r.buf[:0]
			r.start, r.scan = r.lines+1, listScan{}
			continue
		}
		if len(chunk) > 0 {
			r.seen = true
			r.chunkLine = r.lines + 1
			r.lineStart = chunk[len(chunk)-1] == '\n'
			if r.lineStart {
				r.lines++
			}
			r.pend = chunk
		}
	}
}

// end ends the section: it is one more document, unless it ends inside
// the items of a List read item by item.
func (r *Reader) end() ([]byte, int, bool, error) {
	if r.scan.inItems() {
		return nil, r.start, false, &DocumentError{File: r.File, Index: r.n + 1, Line: r.chunkLine,
			Err: errors.New("not valid JSON: unexpected end of JSON input")}
	}
	r.n++
	return r.buf, r.start, false, nil
}

var separator = []byte("---")

// maxKeptBuffer is the largest document buffer a Reader keeps for the
// next document.
const maxKeptBuffer = 1 << 20

// grow makes room for n more bytes in buf, doubling its capacity up to
// limit: append's growth of 1.25 for large slices would allocate five
// times a large document on the way to holding it.
func grow(buf []byte, n int, limit int64) []byte {
	need := len(buf) + n
	if need <= cap(buf) {
		return buf
	}
	c := int(min(max(int64(2*cap(buf)), int64(need), 4096), max(limit, int64(need))))
	out := make([]byte, len(buf), c)
	copy(out, buf)
	return out
}

func blank(b []byte) bool {
	t := bytes.TrimSpace(b)
	return len(t) == 0 || commentOnly(t)
}

// clip keeps an echo of stray text short, cutting on a rune boundary.
func clip(b []byte) string { return redact.Clip(string(b), 32) }

func commentOnly(b []byte) bool {
	for line := range bytes.SplitSeq(b, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) > 0 && line[0] != '#' {
			return false
		}
	}
	return true
}

// Identify reads d's apiVersion, kind, namespace and name into d.Header.
func (d *Document) Identify() (*Header, error) {
	if d.Header != nil {
		return d.Header, nil
	}
	h, err := ReadHeader(d.JSON)
	if err != nil {
		return nil, err
	}
	shape := headerType
	if h.IsList() {
		shape = listType
	}
	if fe := d.repeatedField(shape); fe != nil {
		return nil, fe
	}
	d.Header = &h
	return d.Header, nil
}

// headerType and listType are what Identify and Expand read of a
// document, checked for a field set twice (see repeatedField).
var (
	headerType = reflect.TypeFor[Header]()
	listType   = reflect.TypeFor[struct {
		Header
		Items json.RawMessage `json:"items"`
	}]()
)

// Split reads a whole stream into its non-empty JSON documents, within
// the default Limits. Lists are not expanded, but a JSON List comes as
// its items, as Reader yields it.
func Split(data []byte) ([]json.RawMessage, error) {
	r := NewReader(bytes.NewReader(data))
	var out []json.RawMessage
	for {
		d, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, d.JSON)
	}
}

// Detach returns a copy of d that owns the text it was read from, so
// that FailAt and Unmarshal still find the line of a field once the
// Reader has moved on or the input is gone.
func (d *Document) Detach() *Document {
	c := *d
	c.source = bytes.Clone(d.source)
	c.JSON = bytes.Clone(d.JSON)
	return &c
}
