package conformance_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

var update = flag.Bool("update", false, "rewrite docs/conform-reference.md from the code")

const referenceDoc = "../docs/conform-reference.md"

// docs/conform-reference.md is generated from the code: the status
// fields of each kind with their JSON types, and every condition type,
// status and reason with its message, fixed or shown by examples the
// engine writes. It fails when the file is stale; -update rewrites it.
func TestConformReference_IsCurrent(t *testing.T) {
	got := conformReference(t)
	if *update {
		if err := os.WriteFile(referenceDoc, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(referenceDoc)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != got {
		t.Errorf("%s is stale: run go generate ./conformance", referenceDoc)
	}
}

func conformReference(t *testing.T) string {
	var b strings.Builder
	b.WriteString(`# The conform protocol's reference: status fields and messages

Generated from the code by ` + "`go test ./conformance -run TestConformReference -update`" + `;
a test fails when it is stale. docs/conform.md explains the protocol.

## Status fields other than conditions

Each kind's ` + "`status`" + ` object in an answer, with the JSON type of each
field. An integer is compared as the exact decimal, up to 2^63−1: it must
never pass through a float.

Absence is one rule, the same for every field of every kind: a field
whose value is its type's zero value (` + "`null`, `\"\"`, `false`, `0`, `[]`, `{}`" + `)
may be left out, and an absent field compares equal to that zero value,
whichever side leaves it out. An absent object reads as ` + "`{}`" + `, so the rule
holds inside it too. Any other value must be given.

`)
	for _, k := range []struct {
		kind string
		st   any
	}{
		{"Binding", akv1.BindingStatus{}},
		{"PriceBook", finopsv1.PriceBookStatus{}},
		{"Offering", finopsv1.OfferingStatus{}},
		{"Subscription", finopsv1.SubscriptionStatus{}},
	} {
		fmt.Fprintf(&b, "### %s\n\n", k.kind)
		rows := statusRows(reflect.TypeOf(k.st), "")
		if len(rows) == 0 {
			b.WriteString("No field but `conditions`: `status` is absent or `{}`.\n\n")
			continue
		}
		b.WriteString("| field | JSON type |\n|---|---|\n")
		for _, r := range rows {
			b.WriteString(r + "\n")
		}
		b.WriteString("\n")
	}
	b.WriteString(`## Conditions and messages

Every condition an answer carries, per kind in the order the kind writes
them. A message the engine writes the same way every time is given as
it is (` + "`\"\"`" + ` is the empty message); a message composed per object is shown
by examples the engine writes on the project's scenarios
(conformance/scenarios), byte for byte (cut at 300 bytes here).

`)
	examples := messageExamples(t)
	for _, v := range conformance.Vocabularies(conformance.SeedSystems()...) {
		fmt.Fprintf(&b, "### %s\n\n", v.Kind())
		for _, typ := range v.Types() {
			fmt.Fprintf(&b, "#### %s\n\n%s\n\n| status | reason | message |\n|---|---|---|\n", typ.Name, typ.Meaning)
			for _, r := range typ.Reasons {
				msg := "composed per object (no scenario shows it)"
				ex, seen := examples[exampleKey{v.Kind(), typ.Name, string(r.Status), r.Reason}]
				switch {
				case r.Message != "":
					msg = "`" + r.Message + "`"
				case seen && len(ex) == 0:
					msg = "empty (`\"\"`) in every scenario"
				case len(ex) > 0:
					msg = "composed per object"
				}
				if r.Message == "" && len(ex) > 0 {
					var quoted []string
					for _, e := range ex {
						quoted = append(quoted, "`"+cellText(e)+"`")
					}
					msg += ", e.g. " + strings.Join(quoted, "; ")
				}
				fmt.Fprintf(&b, "| %s | %s | %s |\n", r.Status, r.Reason, msg)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// statusRows lists the JSON fields of a status struct, nested structs as
// dotted paths, conditions left out. Whether a field may be absent is
// not a column: one rule covers every field (see the page's header).
func statusRows(typ reflect.Type, prefix string) []string {
	var rows []string
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || name == "conditions" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		path := prefix + name
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct && ft != reflect.TypeOf(metav1.Time{}) {
			rows = append(rows, fmt.Sprintf("| `%s` | object |", path))
			rows = append(rows, statusRows(ft, path+".")...)
			continue
		}
		if ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct {
			rows = append(rows, fmt.Sprintf("| `%s` | array of objects |", path))
			rows = append(rows, statusRows(ft.Elem(), path+"[].")...)
			continue
		}
		rows = append(rows, fmt.Sprintf("| `%s` | %s |", path, jsonTypeOf(ft)))
	}
	return rows
}

func jsonTypeOf(t reflect.Type) string {
	switch {
	case t == reflect.TypeOf(metav1.Time{}):
		return "string, RFC 3339 in UTC to the second"
	case t == reflect.TypeOf(metav1.ConditionStatus("")):
		return "string: `True`, `False` or `Unknown`"
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "integer (int64, exact)"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer (exact)"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Map:
		return "object of " + jsonTypeOf(t.Elem()) + "s"
	case reflect.Slice:
		return "array of " + jsonTypeOf(t.Elem()) + "s"
	}
	return t.String()
}

type exampleKey struct{ kind, typ, status, reason string }

// messageExamples collects up to two distinct non-empty messages per
// (kind, type, status, reason) from the scenario corpus, in file order.
// Generated snapshots are left out, so a change of the generators does
// not make the file stale; a change of a message does.
func messageExamples(t *testing.T) map[exampleKey][]string {
	out := map[exampleKey][]string{}
	note := func(objs []conformance.Object) {
		for _, o := range objs {
			for _, c := range o.Conditions {
				k := exampleKey{o.Kind, c.Type, string(c.Status), c.Reason}
				if c.Message == "" && out[k] == nil {
					out[k] = []string{}
				}
				if c.Message != "" && len(out[k]) < 2 && !slices.Contains(out[k], c.Message) {
					out[k] = append(out[k], c.Message)
				}
			}
		}
	}
	paths, err := filepath.Glob("scenarios/*/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(paths)
	seeds := conformance.SeedSystems()
	for _, p := range paths {
		f, err := scenario.Load(p)
		if err != nil {
			continue
		}
		f.Expect = nil
		sys, err := system.Find(f.System, seeds...)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if objs, err := conformance.Reference(sys)(f); err == nil {
			note(objs)
		}
	}
	return out
}

// cellText fits a message in a table cell: cut at 300 bytes, pipes and
// backticks escaped.
func cellText(s string) string {
	if len(s) > 300 {
		cut := 300
		for cut > 0 && !utf8Start(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return strings.NewReplacer("|", `\|`, "`", "'").Replace(s)
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
