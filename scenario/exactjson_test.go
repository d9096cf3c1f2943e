package scenario

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Every instant of a file's blocks keeps its fraction of a second through
// JSON, so a conform request or a counterexample asks what the file asks.
func TestMarshalJSON_KeepsTheFractionOfEveryInstant(t *testing.T) {
	at := func(ns int) metav1.Time { return metav1.NewTime(time.Date(2026, 11, 30, 9, 59, 55, ns, time.UTC)) }
	p := func(ns int) *metav1.Time { t := at(ns); return &t }
	f := File{Name: "fractions", System: "binding", Now: at(500_000_000),
		Broker: &Broker{StartedAt: p(1)},
		Writer: &Writer{Bindings: []WriterMemory{{Binding: "a/b", LastWriteEnd: p(300_000_000),
			ForeignEdits: []metav1.Time{at(2)}, FightSince: p(3), LookedAt: []metav1.Time{at(4)}}}},
		Prober: &Prober{LeaderSince: p(5), LastPassStart: p(6), Triggers: []ProberTrigger{{Kind: TriggerConfig, At: at(7)}},
			LastCovered: map[string]metav1.Time{TriggerConfig: at(8)}, LookedAt: []metav1.Time{at(9)}},
		Collection: &Collection{ScheduledHour: at(10)},
		Expect:     []Expectation{{Kind: "Binding", Name: "b", WaitUntil: p(11)}},
	}
	raw, err := json.Marshal(f)
	require.NoError(t, err)
	var back File
	require.NoError(t, json.Unmarshal(raw, &back))
	for path, pair := range map[string][2]metav1.Time{
		"now":                       {f.Now, back.Now},
		"broker.startedAt":          {*f.Broker.StartedAt, *back.Broker.StartedAt},
		"writer...lastWriteEnd":     {*f.Writer.Bindings[0].LastWriteEnd, *back.Writer.Bindings[0].LastWriteEnd},
		"writer...foreignEdits[0]":  {f.Writer.Bindings[0].ForeignEdits[0], back.Writer.Bindings[0].ForeignEdits[0]},
		"writer...fightSince":       {*f.Writer.Bindings[0].FightSince, *back.Writer.Bindings[0].FightSince},
		"writer...lookedAt[0]":      {f.Writer.Bindings[0].LookedAt[0], back.Writer.Bindings[0].LookedAt[0]},
		"prober.leaderSince":        {*f.Prober.LeaderSince, *back.Prober.LeaderSince},
		"prober.lastPassStart":      {*f.Prober.LastPassStart, *back.Prober.LastPassStart},
		"prober.triggers[0].at":     {f.Prober.Triggers[0].At, back.Prober.Triggers[0].At},
		"prober.lastCovered.config": {f.Prober.LastCovered[TriggerConfig], back.Prober.LastCovered[TriggerConfig]},
		"prober.lookedAt[0]":        {f.Prober.LookedAt[0], back.Prober.LookedAt[0]},
		"collection.scheduledHour":  {f.Collection.ScheduledHour, back.Collection.ScheduledHour},
		"expect[0].waitUntil":       {*f.Expect[0].WaitUntil, *back.Expect[0].WaitUntil},
	} {
		assert.True(t, pair[0].Equal(&pair[1]), "%s: wrote %s, read back %s", path,
			pair[0].UTC().Format(time.RFC3339Nano), pair[1].UTC().Format(time.RFC3339Nano))
	}
}

// A file whose block instants are whole seconds is written byte for byte
// as encoding/json writes it without the method: every corpus file but
// those that give a block instant a fraction.
func TestMarshalJSON_WholeSecondsAsBefore(t *testing.T) {
	type plain File
	paths, err := filepath.Glob("../conformance/scenarios/*/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	differ := 0
	for _, path := range paths {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		f, err := Parse(data)
		require.NoError(t, err, path)
		want, err := json.Marshal(plain(*f))
		require.NoError(t, err)
		got, err := json.Marshal(f)
		require.NoError(t, err)
		if string(want) != string(got) {
			differ++
			assert.True(t, hasFraction(*f), "%s: written otherwise, though no block instant has a fraction\nwant %s\ngot  %s", path, want, got)
		}
	}
	assert.Positive(t, differ, "no corpus file has a fraction in a block, so the comparison of a fraction went untested")
}

// hasFraction reports whether any metav1.Time of f's blocks has a
// fraction of a second.
func hasFraction(f File) bool {
	found := false
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch {
		case v.Type() == timeType:
			found = found || v.Interface().(metav1.Time).Nanosecond() != 0
		case v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case v.Kind() == reflect.Slice:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		case v.Kind() == reflect.Map:
			for _, k := range v.MapKeys() {
				walk(v.MapIndex(k))
			}
		case v.Kind() == reflect.Struct && v.Type().PkgPath() == timeType.PkgPath() || v.Kind() == reflect.Struct && v.Type().PkgPath() == reflect.TypeFor[File]().PkgPath():
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		}
	}
	walk(reflect.ValueOf(f))
	return found
}

// The structs the method writes embed none, which it does not handle.
func TestMarshalJSON_BlocksEmbedNoStruct(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var visit func(t reflect.Type)
	visit = func(ty reflect.Type) {
		for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Slice || ty.Kind() == reflect.Map {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct || ty.PkgPath() != reflect.TypeFor[File]().PkgPath() || seen[ty] {
			return
		}
		seen[ty] = true
		for i := range ty.NumField() {
			sf := ty.Field(i)
			assert.False(t, sf.Anonymous && sf.IsExported(), "%s embeds %s", ty, sf.Type)
			visit(sf.Type)
		}
	}
	visit(reflect.TypeFor[File]())
	assert.Greater(t, len(seen), 5)
}
