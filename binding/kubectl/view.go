package kubectl

import (
	"cmp"
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
	type keyed struct {
		row     Row
		uid     string
		created time.Time
	}
	ks := make([]keyed, 0, len(bindings))
	for i := range bindings {
		b := &bindings[i]
		r := Row{Namespace: b.Namespace, Name: b.Name, Channel: b.Spec.Chat.Channel, Age: Age(b.CreationTimestamp.Time, now)}
		// JSONPath filters yield every match; the API server's table
		// conversion prints the first, and so do we.
		if c := conditions.Find(b.Status.Conditions, binding.TypeReady); c != nil {
			r.Ready, r.Reason = string(c.Status), c.Reason
		}
		ks = append(ks, keyed{row: r, uid: string(b.UID), created: b.CreationTimestamp.Time})
	}
	slices.SortFunc(ks, func(x, y keyed) int {
		return cmp.Or(
			cmp.Compare(x.row.Namespace, y.row.Namespace),
			cmp.Compare(x.row.Name, y.row.Name),
			cmp.Compare(x.uid, y.uid),
			x.created.Compare(y.created),
			cmp.Compare(x.row.Channel, y.row.Channel),
			cmp.Compare(x.row.Ready, y.row.Ready),
			cmp.Compare(x.row.Reason, y.row.Reason),
		)
	})
	out := make([]Row, len(ks))
	for i := range ks {
		out[i] = ks[i].row
	}
	return out
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
	// kubectl's own tab writer settings: minimum width 6, tab width 4,
	// padding 3, padded with spaces.
	w := tabwriter.NewWriter(&b, 6, 4, 3, ' ', 0)
	writeLine(w, header)
	for i, r := range rows {
		if i > 0 && i%ChunkSize == 0 {
			_ = w.Flush() // a strings.Builder does not fail
		}
		writeLine(w, []string{r.Namespace, r.Name, r.Ready, r.Reason, r.Channel, r.Age})
	}
	_ = w.Flush()
	return b.String()
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
