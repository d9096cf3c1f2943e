package kubectl

import (
	"cmp"
	"io"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/util/duration"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/conditions"
)

// Row is one line of `kubectl get akbinding -A`.
type Row struct {
	Namespace string
	Name      string
	// Ready and Reason are the status and reason of the first Ready
	// condition, empty when there is none.
	Ready  string
	Reason string
	// Channel is spec.chat.channel.
	Channel string
	// Age is the object's age as kubectl prints it.
	Age string
}

// header is the table's first line, in the order kubectl prints it with
// -A: the namespace and name kubectl adds, then the CRD's printer columns.
var header = []string{"NAMESPACE", "NAME", "READY", "REASON", "CHANNEL", "AGE"}

// Rows computes the table's rows at now, sorted by namespace, name and
// UID (the API server lists in key order), then by creation time and the
// cells, so that even a malformed input listing a name twice gives the
// same table in any order.
func Rows(bindings []akv1.Binding, now time.Time) []Row {
	out := make([]Row, 0, len(bindings))
	for _, i := range order(bindings) {
		out = append(out, row(&bindings[i], now))
	}
	return out
}

// row is b's line at now.
func row(b *akv1.Binding, now time.Time) Row {
	r := Row{Namespace: b.Namespace, Name: b.Name, Channel: b.Spec.Chat.Channel, Age: Age(b.CreationTimestamp.Time, now)}
	r.Ready, r.Reason = ready(b)
	return r
}

// ready is the status and reason of b's first Ready condition: JSONPath
// filters yield every match, and the API server's table conversion
// prints the first.
func ready(b *akv1.Binding) (status, reason string) {
	if c := conditions.Find(b.Status.Conditions, binding.TypeReady); c != nil {
		return string(c.Status), c.Reason
	}
	return "", ""
}

// order returns the positions of bindings in the order of their rows:
// namespace, name and UID, then creation time and the cells. Each key is
// read only when the ones before it tie.
func order(bindings []akv1.Binding) []int32 {
	pos := make([]int32, len(bindings))
	for i := range pos {
		pos[i] = int32(i)
	}
	slices.SortFunc(pos, func(i, j int32) int {
		x, y := &bindings[i], &bindings[j]
		if c := cmp.Or(cmp.Compare(x.Namespace, y.Namespace), cmp.Compare(x.Name, y.Name), cmp.Compare(x.UID, y.UID)); c != 0 {
			return c
		}
		if c := cmp.Or(x.CreationTimestamp.Time.Compare(y.CreationTimestamp.Time), cmp.Compare(x.Spec.Chat.Channel, y.Spec.Chat.Channel)); c != 0 {
			return c
		}
		xs, xr := ready(x)
		ys, yr := ready(y)
		return cmp.Or(cmp.Compare(xs, ys), cmp.Compare(xr, yr))
	})
	return pos
}

// Age prints an object's age the way the API server's table conversion
// does for a date column: "<unknown>" without a creation time, otherwise
// apimachinery's HumanDuration (2m5s, 4m, 2d3h; "<invalid>" for a time more
// than a second in the future).
func Age(created, now time.Time) string {
	if created.IsZero() {
		return "<unknown>"
	}
	return duration.HumanDuration(now.Sub(created))
}

// Table prints rows as kubectl does: a header line, then one line per row,
// each column as wide as its widest cell plus three spaces (six at
// least), for the whole table: a wide cell in row 900 widens the column
// in row 1 too, where kubectl, which aligns each chunk of 500 rows it
// lists on its own, would let the columns shift. Cells are made one line
// so a hostile value cannot forge another row.
func Table(rows []Row) string {
	var b strings.Builder
	writeTable(&b, len(rows), func(k int) Row { return rows[k] }) // a strings.Builder does not fail
	return b.String()
}

// The layout of kubectl's tab writer: a column is at least minWidth
// runes wide and padding wider than its widest cell; the last column is
// not padded.
const (
	minWidth = 6
	padding  = 3
)

// writeTable writes the header and n rows, rowAt giving each in turn, to
// w. It reads the rows twice, once for the widths of the columns and once
// to write them, so that it holds one line at a time and never the
// whole table.
func writeTable(w io.Writer, n int, rowAt func(k int) Row) {
	widths := make([]int, len(header)-1)
	measure := func(cells []string) {
		for i := range widths {
			widths[i] = max(widths[i], utf8.RuneCountInString(oneLine(cells[i]))+padding, minWidth)
		}
	}
	measure(header)
	for k := range n {
		measure(rowAt(k).cells())
	}
	var line []byte
	put := func(cells []string) {
		line = line[:0]
		for i, c := range cells {
			c = oneLine(c)
			line = append(line, c...)
			if i < len(widths) {
				for range widths[i] - utf8.RuneCountInString(c) {
					line = append(line, ' ')
				}
			}
		}
		line = append(line, '\n')
		_, _ = w.Write(line)
	}
	put(header)
	for k := range n {
		put(rowAt(k).cells())
	}
}

// cells lists the row's cells in the order of header.
func (r Row) cells() []string {
	return []string{r.Namespace, r.Name, r.Ready, r.Reason, r.Channel, r.Age}
}

// Get is Table(Rows(bindings, now)): the output of
// `kubectl get akbinding -A` at now.
func Get(bindings []akv1.Binding, now time.Time) string {
	return Table(Rows(bindings, now))
}

// oneLine replaces the characters that would break the table's layout.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\t\n\r\v\f") {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case '\t', '\n', '\r', '\v', '\f':
			return ' '
		}
		return r
	}, s)
}
