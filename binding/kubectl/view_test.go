package kubectl

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/yaml"
	"pgregory.net/rapid"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
)

var now = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

func mk(ns, name, channel string, age time.Duration, ready ...string) akv1.Binding {
	b := akv1.Binding{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID("u-" + name),
			CreationTimestamp: metav1.NewTime(now.Add(-age))},
		Spec: akv1.BindingSpec{Chat: akv1.ChatRef{Channel: channel}},
	}
	if len(ready) == 2 {
		b.Status.Conditions = []metav1.Condition{
			{Type: binding.TypeAccepted, Status: metav1.ConditionTrue, Reason: "OK"},
			{Type: binding.TypeReady, Status: metav1.ConditionStatus(ready[0]), Reason: ready[1]},
		}
	}
	return b
}

// The documentation's table as kubectl lays it out. Two cells differ from
// the seed's drawing, which is not kubectl output: the second age is 90
// seconds ("1m" is not a form HumanDuration produces), and REASON is as
// wide as its longest cell plus kubectl's padding of three (the seed
// draws five).
func TestGet_SeedTable(t *testing.T) {
	want := "" +
		"NAMESPACE   NAME          READY   REASON                     CHANNEL   AGE\n" +
		"team-a      late          False   Accepted:ChannelConflict   C1        90s\n" +
		"team-a      team-a-chat   True    OK                         C2        4m\n"
	got := Get([]akv1.Binding{
		mk("team-a", "team-a-chat", "C2", 4*time.Minute, "True", "OK"),
		mk("team-a", "late", "C1", 90*time.Second, "False", "Accepted:ChannelConflict"),
	}, now)
	assert.Equal(t, want, got, "rows come in the API server's order, by name")
}

func TestRows_NoStatus_EmptyReadyAndReason(t *testing.T) {
	rows := Rows([]akv1.Binding{mk("team-a", "new", "C9", 3*time.Second)}, now)
	assert.Equal(t, []Row{{Namespace: "team-a", Name: "new", Channel: "C9", Age: "3s"}}, rows)
	assert.Equal(t, "NAMESPACE   NAME   READY   REASON   CHANNEL   AGE\nteam-a      new                     C9        3s\n", Table(rows))
}

func TestRows_Pending(t *testing.T) {
	rows := Rows([]akv1.Binding{mk("a", "b", "C", time.Second, "Unknown", "Pending")}, now)
	assert.Equal(t, "Unknown", rows[0].Ready)
	assert.Equal(t, "Pending", rows[0].Reason)
}

func TestAge_KubectlShortForms(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                                 "0s",
		-time.Second:                      "0s",
		-5 * time.Second:                  "<invalid>",
		119 * time.Second:                 "119s",
		4 * time.Minute:                   "4m",
		4*time.Minute + 5*time.Second:     "4m5s",
		3*time.Hour + 20*time.Minute:      "3h20m",
		51 * time.Hour:                    "2d3h",
		400 * 24 * time.Hour:              "400d",
		3*365*24*time.Hour + 24*time.Hour: "3y1d",
	} {
		assert.Equal(t, want, Age(now.Add(-d), now), "age %s", d)
	}
	assert.Equal(t, "<unknown>", Age(time.Time{}, now))
}

func TestTable_CellsCannotForgeRows(t *testing.T) {
	b := mk("a", "b", "C1\nevil   x", time.Second)
	out := Get([]akv1.Binding{b}, now)
	assert.Equal(t, 2, strings.Count(out, "\n"))
}

func TestRows_InputOrderDoesNotMatter(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 8).Draw(t, "n")
		var bs []akv1.Binding
		for i := range n {
			ns := rapid.SampledFrom([]string{"a", "b"}).Draw(t, "ns")
			name := rapid.SampledFrom([]string{"x", "y", "z"}).Draw(t, "name")
			b := mk(ns, name, "C", time.Duration(i)*time.Minute, "True", "OK")
			b.UID = types.UID(rapid.SampledFrom([]string{"u1", "u2"}).Draw(t, "uid"))
			bs = append(bs, b)
		}
		perm := rapid.Permutation(bs).Draw(t, "perm")
		if d := cmp.Diff(Get(bs, now), Get(perm, now)); d != "" {
			t.Fatalf("order changed the table:\n%s", d)
		}
	})
}

// The Go data must be what the CRD in config/crd declares, or the real
// kubectl and this view would disagree.
func TestPrinterColumns_MatchTheCRD(t *testing.T) {
	raw, err := os.ReadFile("../../config/crd/agentkourier.dev_bindings.yaml")
	require.NoError(t, err)
	js, err := yaml.ToJSON(raw)
	require.NoError(t, err)
	var crd struct {
		Spec struct {
			Versions []struct {
				Name    string   `json:"name"`
				Columns []Column `json:"additionalPrinterColumns"`
			} `json:"versions"`
		} `json:"spec"`
	}
	require.NoError(t, json.Unmarshal(js, &crd))
	require.Len(t, crd.Spec.Versions, 1)
	assert.Equal(t, PrinterColumns(), crd.Spec.Versions[0].Columns)
	for i, c := range PrinterColumns() {
		assert.Equal(t, header[i+2], strings.ToUpper(c.Name))
	}
}

// The columns hold for the whole table: a wide cell in row 501 (past
// the 500 rows kubectl aligns on their own) widens the column in row 1
// too, and every line puts READY at the same place.
func TestTable_ColumnsHoldForTheWholeTable(t *testing.T) {
	rows := make([]Row, 1501)
	for i := range rows {
		rows[i] = Row{Namespace: "ns", Name: "b", Ready: "True", Reason: "OK", Channel: "C1", Age: "4m"}
	}
	rows[500].Name = "a-much-longer-binding-name"
	rows[1500].Reason = "Accepted:ChannelConflict"
	lines := strings.Split(strings.TrimSuffix(Table(rows), "\n"), "\n")
	if len(lines) != len(rows)+1 {
		t.Fatalf("%d lines, want %d", len(lines), len(rows)+1)
	}
	ready, channel := strings.Index(lines[0], "READY"), strings.Index(lines[0], "CHANNEL")
	for i, l := range lines[1:] {
		if strings.Index(l, "True") != ready || strings.LastIndex(l, "C1") != channel {
			t.Fatalf("row %d is out of line with the header:\n%s\n%s", i+1, lines[0], l)
		}
	}
	if ready != len("NAMESPACE   ")+len("a-much-longer-binding-name   ") {
		t.Fatalf("NAME is not as wide as its widest cell:\n%s", lines[0])
	}
}

// Up to its widest cell a table is laid out as text/tabwriter with
// kubectl's settings lays it out.
func TestTable_IsTabwriterLayout(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 20).Draw(t, "n")
		cell := rapid.SampledFrom([]string{"", "a", "ns-1", "Accepted:ChannelConflict", "é-ü", "x\ty", "名前"})
		rows := make([]Row, n)
		for i := range rows {
			rows[i] = Row{Namespace: cell.Draw(t, "ns"), Name: cell.Draw(t, "name"), Ready: cell.Draw(t, "ready"),
				Reason: cell.Draw(t, "reason"), Channel: cell.Draw(t, "channel"), Age: cell.Draw(t, "age")}
		}
		var want strings.Builder
		tw := tabwriter.NewWriter(&want, 6, 4, 3, ' ', 0)
		for _, r := range append([]Row{{"NAMESPACE", "NAME", "READY", "REASON", "CHANNEL", "AGE"}}, rows...) {
			cells := r.cells()
			for i := range cells {
				cells[i] = oneLine(cells[i])
			}
			_, _ = tw.Write([]byte(strings.Join(cells, "\t") + "\n"))
		}
		_ = tw.Flush()
		if got := Table(rows); got != want.String() {
			t.Fatalf("got:\n%s\nwant:\n%s", got, want.String())
		}
	})
}
