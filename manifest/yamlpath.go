package manifest

import (
	"regexp"
	"strconv"
	"strings"
)

// yamlPath is the full path (spec.channels[2].name) of the key written
// at column col of lines[row], found from the text as yamlLineOf finds a
// line: each parent is the nearest line above that is less indented, a
// list item's place is counted among the "- " items of its column. A
// flow collection opened on the key's line ({name: a}, or {metadata:
// {name: a}} and [{a: 1}, {a: 2}] nested) is read from its opening
// bracket to the key and placed under the block key or list item on its
// line; where that reading fails (a flow collection opened on an earlier
// line), key alone is returned.
func yamlPath(lines []string, row, col int, key string) string {
	segs := []string{key}
	prefix := lines[row][:col]
	if open := strings.IndexAny(prefix, "{["); open >= 0 {
		// A flow collection: the value of the block key on this line, a
		// list item, or the whole document.
		inner, ok := flowSegs(prefix[open:])
		if !ok {
			return key
		}
		for j := len(inner) - 1; j >= 0; j-- {
			segs = append(segs, inner[j])
		}
		prefix = prefix[:open]
		if m := blockKey.FindStringSubmatchIndex(prefix); m != nil {
			segs = append(segs, yamlKeyName(prefix[m[2]:m[3]]))
			prefix = prefix[:m[2]]
		} else if strings.Trim(prefix, " -") != "" {
			return key
		}
	}
	col = itemsOnLine(lines, row, prefix, &segs)
	for i := row - 1; i >= 0 && (col > 0 || isItem(segs[len(segs)-1])); i-- {
		body := strings.TrimLeft(lines[i], " ")
		if body == "" || body[0] == '#' {
			continue
		}
		indent := len(lines[i]) - len(body)
		inItem := isItem(segs[len(segs)-1])
		if indent > col || (indent == col && (!inItem || strings.HasPrefix(body, "-"))) {
			continue
		}
		// The parent: a block key on this line left of the node (or,
		// for a list item, at its column), else the innermost list
		// item opened on it.
		prefix := lines[i][:min(col, len(lines[i]))]
		if inItem && dashAt(lines[i], col) {
			// The first item of our list, opened on its parent's line
			// ("- - a"): the parent is an item left of it.
			col = itemsOnLine(lines, i, prefix, &segs)
			continue
		}
		if m := blockKey.FindStringSubmatchIndex(lines[i]); m != nil {
			if m[2] < col || (inItem && m[2] == col) {
				segs = append(segs, yamlKeyName(lines[i][m[2]:m[3]]))
			}
			prefix = lines[i][:m[2]]
		}
		col = itemsOnLine(lines, i, prefix, &segs)
	}
	var b strings.Builder
	for j := len(segs) - 1; j >= 0; j-- {
		if b.Len() > 0 && !isItem(segs[j]) {
			b.WriteByte('.')
		}
		b.WriteString(segs[j])
	}
	return b.String()
}

func isItem(seg string) bool { return strings.HasPrefix(seg, "[") }

// blockKey is the last "key:" of a line's block part (after any "- "),
// its key in group 1.
var blockKey = regexp.MustCompile(`^[ \-]*("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"{\[][^#]*?)\s*:(?:\s|$)`)

// yamlKeyName is a key as the decoder reads it, quotes removed.
func yamlKeyName(k string) string {
	if u, err := strconv.Unquote(k); err == nil {
		return u
	}
	if len(k) >= 2 && k[0] == '\'' && k[len(k)-1] == '\'' {
		return strings.ReplaceAll(k[1:len(k)-1], "''", "'")
	}
	return k
}

// itemsOnLine appends to segs the place of each list item whose "- "
// ends prefix (the text of lines[row] left of a node), innermost first,
// and returns the column of the outermost: where the search for the
// parent goes on. With no item, it is prefix's indent.
func itemsOnLine(lines []string, row int, prefix string, segs *[]string) int {
	for {
		t := strings.TrimRight(prefix, " ")
		if !strings.HasSuffix(t, "-") || (len(t) > 1 && t[len(t)-2] != ' ' && t[len(t)-2] != '-') {
			return len(prefix) - len(strings.TrimLeft(prefix, " "))
		}
		dash := len(t) - 1
		*segs = append(*segs, "["+strconv.Itoa(itemIndex(lines, row, dash))+"]")
		prefix = t[:dash]
		if strings.TrimSpace(prefix) == "" {
			return dash
		}
	}
}

// itemIndex is the place, from 0, of the list item whose dash is at
// column dash of lines[row]: the items of its column above it, back to
// the line that holds the list.
func itemIndex(lines []string, row, dash int) int {
	n := 0
	for i := row - 1; i >= 0; i-- {
		body := strings.TrimLeft(lines[i], " ")
		if body == "" || body[0] == '#' {
			continue
		}
		indent := len(lines[i]) - len(body)
		switch {
		case indent > dash:
			continue
		case indent == dash && (body == "-" || strings.HasPrefix(body, "- ")):
			n++
		case dashAt(lines[i], dash):
			return n + 1 // the list's first item, on its parent's line
		default:
			return n
		}
	}
	return n
}

// dashAt reports whether line opens a list item at column col after
// nothing but other items' dashes: "- - a" at column 2.
func dashAt(line string, col int) bool {
	if col >= len(line) || line[col] != '-' || strings.Trim(line[:col], " -") != "" {
		return false
	}
	return col+1 == len(line) || line[col+1] == ' '
}

// flowSegs reads flow, the text from a flow collection's opening bracket
// up to a key of its innermost open mapping, and returns the path from
// the outermost collection to that mapping, outermost first: for each
// mapping the key whose value is still open, for each sequence the
// item's place ("{a: [1, {" gives a, [1]). ok is false unless every
// bracket opened in flow is understood and the innermost is a mapping.
func flowSegs(flow string) (segs []string, ok bool) {
	type level struct {
		seq  bool
		item int
		key  string
	}
	var stack []level
	tok := 0 // where the current scalar starts
	for i := 0; i < len(flow); i++ {
		c := flow[i]
		switch {
		case (c == '"' || c == '\'') && strings.TrimSpace(flow[tok:i]) == "":
			end := closingQuote(flow, i)
			if end < 0 {
				return nil, false
			}
			i = end
		case c == '{' || c == '[':
			stack = append(stack, level{seq: c == '['})
			tok = i + 1
		case c == '}' || c == ']':
			if len(stack) == 0 {
				return nil, false
			}
			stack = stack[:len(stack)-1]
			tok = i + 1
		case c == ',':
			if len(stack) == 0 {
				return nil, false
			}
			top := &stack[len(stack)-1]
			top.item++
			top.key = ""
			tok = i + 1
		case c == ':' && len(stack) > 0 && !stack[len(stack)-1].seq &&
			(i+1 == len(flow) || strings.IndexByte(" ,[]{}", flow[i+1]) >= 0 || i > 0 && (flow[i-1] == '"' || flow[i-1] == '\'')):
			stack[len(stack)-1].key = yamlKeyName(strings.TrimSpace(flow[tok:i]))
			tok = i + 1
		}
	}
	if len(stack) == 0 || stack[len(stack)-1].seq {
		return nil, false
	}
	for _, l := range stack[:len(stack)-1] {
		switch {
		case l.seq:
			segs = append(segs, "["+strconv.Itoa(l.item)+"]")
		case l.key == "":
			return nil, false
		default:
			segs = append(segs, l.key)
		}
	}
	return segs, true
}

// closingQuote is the offset of the quote that closes the one at
// flow[open], or -1: a double-quoted scalar ends at an unescaped '"', a
// single-quoted one at a single quote that is not doubled.
func closingQuote(flow string, open int) int {
	q := flow[open]
	for i := open + 1; i < len(flow); i++ {
		switch {
		case q == '"' && flow[i] == '\\':
			i++
		case flow[i] == q && q == '\'' && i+1 < len(flow) && flow[i+1] == '\'':
			i++
		case flow[i] == q:
			return i
		}
	}
	return -1
}
