package kube

import (
	"fmt"
	"regexp"
	"strings"
)

// Table is kubectl's plain table output, cut into cells.
type Table struct {
	Header []string
	Rows   [][]string
}

var headerCell = regexp.MustCompile(`\S+(?: \S+)*`)

// ParseTable cuts kubectl's output at the header's column starts. kubectl
// left-aligns every cell under its header, so this also reads empty cells,
// which splitting on blanks would lose; a header of two words ("LAST
// STATUS") stays one column because columns are at least three spaces apart.
func ParseTable(out string) (Table, error) {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) == "" {
		return Table{}, fmt.Errorf("no table in %q", out)
	}
	locs := headerCell.FindAllStringIndex(lines[0], -1)
	var t Table
	for _, l := range locs {
		t.Header = append(t.Header, lines[0][l[0]:l[1]])
	}
	for _, line := range lines[1:] {
		row := make([]string, len(locs))
		for i, l := range locs {
			end := len(line)
			if i+1 < len(locs) {
				end = min(locs[i+1][0], len(line))
			}
			if l[0] < end {
				row[i] = strings.TrimSpace(line[l[0]:end])
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

// Column returns the values of the column headed name, one per row.
func (t Table) Column(name string) []string {
	for i, h := range t.Header {
		if h == name {
			out := make([]string, len(t.Rows))
			for r, row := range t.Rows {
				out[r] = row[i]
			}
			return out
		}
	}
	return nil
}

// Without returns the rows with the named columns dropped (AGE, whose value
// depends on when the test ran).
func (t Table) Without(names ...string) [][]string {
	drop := map[int]bool{}
	for i, h := range t.Header {
		for _, n := range names {
			if h == n {
				drop[i] = true
			}
		}
	}
	out := make([][]string, 0, len(t.Rows))
	for _, row := range t.Rows {
		var kept []string
		for i, c := range row {
			if !drop[i] {
				kept = append(kept, c)
			}
		}
		out = append(out, kept)
	}
	return out
}
