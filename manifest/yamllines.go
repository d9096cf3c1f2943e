package manifest

import (
	"bytes"
	"regexp"
)

// The items of a List in YAML are placed on their lines by reading the
// text, as the field finder (yamlLineOf, yamlItem) places items[i]: the
// List's items key is the first line at or after the List's own place
// that holds one, and its items are the lines that open with a dash at
// the column of the first one, up to a line left of it. Walked once per
// List, that reading passed over each nested List's lines once for each
// List around it; here the lines are measured once, each line knows the
// next one at or left of its column, and each List resumes where its
// last item was found, skipping the items' insides.

// itemPlace is where a List item's text starts in its document's YAML
// source: the offset of the start of its line, that line's number from
// 0 and the column a search for its fields starts at (past the "items:"
// of a List whose items could not be placed, as yamlLineOf carries on
// from there).
type itemPlace struct {
	off  int
	line int
	col  int
}

// unplaced marks an item whose place in the source is unknown.
var unplaced = itemPlace{off: -1}

// yamlItemsKey finds an "items" key as yamlLineOf finds a key.
var yamlItemsKey = regexp.MustCompile(`(^|[\s{,\-])["']?items["']?\s*:(\s|$)`)

// yamlLines is what a YAML text's lines tell of its block structure.
type yamlLines struct {
	src    []byte
	starts []int32 // where each line starts
	indent []int32 // its spaces before the text; -1 when blank or a comment
	// nextLE is the next line that is not blank, at or left of the line's
	// indent; len(starts) when none.
	nextLE []int32
	// keyAt memoizes the first line at or after each that holds an items
	// key, plus one; 0 when not yet looked for.
	keyAt []int32
}

func newYAMLLines(src []byte) *yamlLines {
	n := bytes.Count(src, []byte("\n")) + 1
	y := &yamlLines{src: src, starts: make([]int32, 0, n), indent: make([]int32, n),
		nextLE: make([]int32, n), keyAt: make([]int32, n)}
	for off := 0; ; {
		y.starts = append(y.starts, int32(off))
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
	}
	var open []int32 // lines still waiting for their nextLE, indents rising
	for i := range y.starts {
		text := y.line(i)
		body := bytes.TrimLeft(text, " ")
		y.nextLE[i] = int32(n)
		if len(body) == 0 || body[0] == '#' {
			y.indent[i] = -1
			continue
		}
		in := int32(len(text) - len(body))
		y.indent[i] = in
		for len(open) > 0 && y.indent[open[len(open)-1]] >= in {
			y.nextLE[open[len(open)-1]] = int32(i)
			open = open[:len(open)-1]
		}
		open = append(open, int32(i))
	}
	return y
}

// line is the text of line i, without its newline.
func (y *yamlLines) line(i int) []byte {
	return lineAt(y.src, int(y.starts[i]))
}

// firstKey is the first line at or after i that holds an items key, or
// len(starts).
func (y *yamlLines) firstKey(i int) int {
	n := len(y.starts)
	j := i
	for j < n && y.keyAt[j] == 0 && !yamlItemsKey.Match(y.line(j)) {
		j++
	}
	found := n
	switch {
	case j < n && y.keyAt[j] != 0:
		found = int(y.keyAt[j]) - 1
	case j < n:
		found = j
	}
	for k := i; k <= j && k < n; k++ {
		y.keyAt[k] = int32(found) + 1
	}
	return found
}

// yamlList places the items of one List, one after the other.
type yamlList struct {
	y      *yamlLines
	keyAt  itemPlace // the items key's place, unplaced when none was found
	flow   bool      // the items are a flow list, all on the key's line
	indent int       // the column of the items' dashes, -1 before the first
	cur    int       // the line to go on from
	done   bool      // no more items are on lines of their own
}

// list finds the items key of the List at place at.
func (y *yamlLines) list(at itemPlace) *yamlList {
	l := &yamlList{y: y, keyAt: unplaced, indent: -1}
	line, col := at.line, -1
	if text := y.line(line); at.col <= len(text) {
		if loc := yamlItemsKey.FindIndex(text[at.col:]); loc != nil {
			col = at.col + loc[1]
		}
	}
	if col < 0 && line+1 < len(y.starts) {
		if line = y.firstKey(line + 1); line < len(y.starts) {
			col = yamlItemsKey.FindIndex(y.line(line))[1]
		}
	}
	if col < 0 {
		l.done = true
		return l
	}
	l.keyAt = itemPlace{off: int(y.starts[line]), line: line, col: col}
	text := y.line(line)
	l.flow = col < len(text) && bytes.IndexByte(text[col:], '[') >= 0
	l.cur = line
	return l
}

// next is the place of the List's next item: its line when it opens one
// with a dash, else the items key's place.
func (l *yamlList) next() itemPlace {
	y := l.y
	if l.flow || l.done {
		return l.keyAt
	}
	for l.cur < len(y.starts) {
		i := l.cur
		in := int(y.indent[i])
		if in < 0 {
			l.cur++
			continue
		}
		body := y.line(i)[in:]
		if i == l.keyAt.line && l.indent < 0 {
			// A list opened on the key's line, left of the key ("- items:"
			// does not open one).
			if !bytes.HasPrefix(body, []byte("- ")) || l.keyAt.col > in {
				l.cur++
				continue
			}
		}
		if l.indent < 0 {
			if body[0] != '-' {
				break
			}
			l.indent = in
		}
		if in < l.indent {
			break
		}
		l.cur = int(y.nextLE[i])
		if in == l.indent && body[0] == '-' {
			return itemPlace{off: int(y.starts[i]), line: i}
		}
	}
	l.done = true
	return l.keyAt
}

// lineAt is the line of src that starts at off, without its newline.
func lineAt(src []byte, off int) []byte {
	if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
		return src[off : off+i]
	}
	return src[off:]
}
