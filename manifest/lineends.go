package manifest

import (
	"bytes"
	"io"
)

// A line may end in LF, CRLF or a lone CR (old Mac files, some editors):
// YAML reads all three as line breaks. The reader splits documents at
// --- lines and counts lines by LF alone, so a lone CR is read as the LF
// it stands for before anything else sees the text. A file of CR line
// ends then reads as the same file with LF ones: its --- separators
// split it and its lines are counted, where before every document after
// the first was one long line that the YAML decoder cut short. The
// translation changes nothing else: a line break inside a YAML scalar
// is folded the same whichever it is, and JSON allows neither raw in a
// string. A CR followed by LF is left as it is.

// crReader passes on what it reads with each lone CR turned into LF.
type crReader struct {
	src  io.Reader
	buf  []byte
	r, w int  // buf[r:w] is translated and not yet passed on
	cr   bool // a CR ended the last read: its reading waits for the next byte
	err  error
}

func newCRReader(src io.Reader) *crReader {
	return &crReader{src: src, buf: make([]byte, 32<<10)}
}

func (c *crReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if c.r == c.w {
		if c.err != nil {
			return 0, c.err
		}
		c.fill()
		if c.r == c.w {
			return 0, c.err
		}
	}
	n := copy(p, c.buf[c.r:c.w])
	c.r += n
	return n, nil
}

// fill reads the next bytes into buf, after a CR held from the last
// read, and translates them; a CR that ends them is held in turn unless
// the input has ended.
func (c *crReader) fill() {
	start := 0
	if c.cr {
		c.buf[0], start, c.cr = '\r', 1, false
	}
	n, err := c.src.Read(c.buf[start:])
	c.err = err
	end := start + n
	b := c.buf[:end]
	for i := bytes.IndexByte(b, '\r'); i >= 0; {
		switch {
		case i+1 < len(b):
			if b[i+1] != '\n' {
				b[i] = '\n'
			}
		case err == nil:
			c.cr = true // the next read tells
			end--
		default:
			b[i] = '\n'
		}
		j := bytes.IndexByte(b[i+1:], '\r')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	c.r, c.w = 0, end
}

// bom is the UTF-8 byte order mark some editors write at the start of a
// file; YAML allows one before each document.
var bom = []byte("\xef\xbb\xbf")

// A YAML document may also end at a line of three dots. The text after
// it would be a document of its own to YAML, but the reader counts
// documents by --- lines and the YAML decoder reads one document, so it
// would be dropped without a word; it is refused instead.

// afterDocumentEnd is the line (from 1) of the first text after a "..."
// line in the YAML document text, or 0 when there is none.
func afterDocumentEnd(text []byte) int {
	if !bytes.Contains(text, []byte("...")) {
		return 0
	}
	ended := false
	line := 0
	for l := range bytes.SplitSeq(text, []byte("\n")) {
		line++
		if rest, ok := bytes.CutPrefix(l, []byte("...")); ok && (len(rest) == 0 || isSpace(rest[0])) {
			ended = true
			continue
		}
		if ended && !blank(l) {
			return line
		}
	}
	return 0
}
