package kubectl

import (
	"cmp"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

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

// ChunkSize is kubectl's default --chunk-size: it lists that many objects
// per request and aligns the columns of each chunk on their own.
const ChunkSize = 500

// Table prints rows as kubectl does: a header line, then one line per row,
// columns separated by at least three spaces, each chunk of ChunkSize rows
// aligned on its own (so past 500 rows a wider cell in a later chunk does
// not move the columns above it). Cells are made one line so a hostile
// value cannot forge another row.
func Table(rows []Row) string {
	var b strings.Builder
	writeTable(&b, len(rows), func(k int) Row { return rows[k] }) // a strings.Builder does not fail
	return b.String()
}

// writeTable writes the header and n rows, rowAt giving each in turn, to
// w, with kubectl's own tab writer settings (minimum width 6, tab width
// 4, padding 3, padded with spaces), each chunk aligned on its own.
func writeTable(w io.Writer, n int, rowAt func(k int) Row) {
	tw := tabwriter.NewWriter(w, 6, 4, 3, ' ', 0)
	writeLine(tw, header)
	for k := range n {
		if k > 0 && k%ChunkSize == 0 {
			_ = tw.Flush()
		}
		r := rowAt(k)
		writeLine(tw, []string{r.Namespace, r.Name, r.Ready, r.Reason, r.Channel, r.Age})
	}
	_ = tw.Flush()
}

// Get is Table(Rows(bindings, now)): the output of
// `kubectl get akbinding -A` at now.
func Get(bindings []akv1.Binding, now time.Time) string {
	return Table(Rows(bindings, now))
}

func writeLine(w *tabwriter.Writer, cells []string) {
	for i, c := range cells {
		if i > 0 {
			_, _ = w.Write([]byte{'\t'})
		}
		_, _ = w.Write([]byte(oneLine(c)))
	}
	_, _ = w.Write([]byte{'\n'})
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
