package kubectl

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
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

// kubectl aligns each chunk of 500 rows on its own: a wide cell in the
// second chunk must not widen the columns of the first.
func TestTable_EachChunkIsAlignedOnItsOwn(t *testing.T) {
	rows := make([]Row, ChunkSize+1)
	for i := range rows {
		rows[i] = Row{Namespace: "ns", Name: "b", Ready: "True", Reason: "OK", Channel: "C1", Age: "4m"}
	}
	rows[ChunkSize].Name = "a-much-longer-binding-name"
	lines := strings.Split(strings.TrimSuffix(Table(rows), "\n"), "\n")
	if len(lines) != ChunkSize+2 {
		t.Fatalf("%d lines, want %d", len(lines), ChunkSize+2)
	}
	first, last := lines[1], lines[len(lines)-1]
	if strings.Index(first, "True") >= strings.Index(last, "True") {
		t.Fatalf("the first chunk was aligned with the second:\n%s\n%s", first, last)
	}
	if strings.Index(lines[0], "READY") != strings.Index(first, "True") {
		t.Fatalf("header and first chunk disagree:\n%s\n%s", lines[0], first)
	}
}
