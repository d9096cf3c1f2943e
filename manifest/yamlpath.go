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
// flow mapping ({name: a}) is placed under the block key on its line;
// inside deeper flow collections, only key is known, and key alone is
// returned.
func yamlPath(lines []string, row, col int, key string) string {
	segs := []string{key}
	prefix := lines[row][:col]
	if open := strings.IndexAny(prefix, "{["); open >= 0 {
		// A flow mapping: the value of the block key on this line, a
		// list item, or the whole document.
		if strings.Count(prefix, "{")+strings.Count(prefix, "[") > 1 || prefix[open] != '{' {
			return key
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
