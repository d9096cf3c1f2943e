package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

func TestSplitID_Cases(t *testing.T) {
	for name, tc := range map[string]struct {
		line, rest string
		id         int64 // 0: none
		err        string
	}{
		"first":               {`{"id":5,"name":"x"}`, `{"name":"x"}`, 5, ""},
		"last":                {`{"name":"x","id":5}`, `{"name":"x"}`, 5, ""},
		"between":             {`{"a":1,"id":-5,"b":2}`, `{"a":1,"b":2}`, -5, ""},
		"alone":               {`{"id":5}`, `{}`, 5, ""},
		"spaced":              {" {\t\"id\" :\n5 ,\r\"name\" : \"x\" } ", " {\t\r\"name\" : \"x\" } ", 5, ""},
		"escaped key":         {`{"name":"x","\u0069d":5}`, `{"name":"x"}`, 5, ""},
		"largest":             {`{"id":9223372036854775807}`, `{}`, 9223372036854775807, ""},
		"none":                {`{"name":"x"}`, `{"name":"x"}`, 0, ""},
		"empty":               {`{}`, `{}`, 0, ""},
		"in a string":         {`{"name":"\",\"id\":5"}`, `{"name":"\",\"id\":5"}`, 0, ""},
		"nested":              {`{"broker":{"id":5},"objects":[{"id":6}]}`, `{"broker":{"id":5},"objects":[{"id":6}]}`, 0, ""},
		"other case":          {`{"Id":5}`, `{"Id":5}`, 0, ""},
		"long key like it":    {`{"idd":5,"i":6}`, `{"idd":5,"i":6}`, 0, ""},
		"twice":               {`{"id":5,"name":"x","id":6}`, "", 0, "id: given twice (columns 2 and 20)"},
		"twice, once escaped": {`{"id":5,"\u0069d":5}`, "", 0, "id: given twice (columns 2 and 9)"},
		"a fraction":          {`{"id":1.5}`, "", 0, "id 1.5 is not an integer from -2^63 to 2^63-1"},
		"an exponent":         {`{"id":1e2}`, "", 0, "id 1e2 is not an integer"},
		"too large":           {`{"id":9223372036854775808}`, "", 0, "id 9223372036854775808 is not an integer"},
		"a string":            {`{"id":"5"}`, "", 0, `id "5" is not an integer`},
		"null":                {`{"id":null}`, "", 0, "id null is not an integer"},
		"huge":                {`{"id":` + strings.Repeat("7", 100_000) + `}`, "", 0, "id " + strings.Repeat("7", 40) + "… (100000 bytes) is not an integer"},
	} {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, CheckLine([]byte(tc.line)))
			id, rest, err := splitID([]byte(tc.line))
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				assert.Less(t, len(err.Error()), 200)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.rest, string(rest))
			if tc.id == 0 {
				assert.Nil(t, id)
			} else if assert.NotNil(t, id) {
				assert.Equal(t, tc.id, *id)
			}
		})
	}
}

// genValue draws a JSON value as text, with the traps a splitter must
// not fall into: "id" inside strings and nested objects, escaped quotes
// and backslashes, brackets inside strings.
func genValue(t *rapid.T, depth int) string {
	leaf := rapid.SampledFrom([]string{`1`, `-2.5e3`, `true`, `null`, `""`, `"x"`, `"\"id\":1,"`, `"a\\"`, `"}]{["`, `"\u00e9\n"`, `"id"`})
	if depth > 2 {
		return leaf.Draw(t, "leaf")
	}
	switch rapid.IntRange(0, 2).Draw(t, "shape") {
	case 0:
		return leaf.Draw(t, "leaf")
	case 1:
		n := rapid.IntRange(0, 3).Draw(t, "len")
		items := make([]string, n)
		for i := range items {
			items[i] = genValue(t, depth+1)
		}
		return "[" + strings.Join(items, ", ") + "]"
	}
	n := rapid.IntRange(0, 3).Draw(t, "len")
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "%q:%s", rapid.SampledFrom([]string{"id", "a", "b" + strconv.Itoa(i)}).Draw(t, "key"), genValue(t, depth+1))
	}
	b.WriteString("}")
	return b.String()
}

// TestSplitID_TakesOutTheTopLevelIDOnly: wherever the id stands, however
// it is spaced or escaped, splitID returns it and the object without it;
// a line without one comes back as it was.
func TestSplitID_TakesOutTheTopLevelIDOnly(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		space := func(label string) string {
			return rapid.StringOfN(rapid.SampledFrom([]rune(" \t\r\n")), 0, 2, -1).Draw(t, label)
		}
		n := rapid.IntRange(0, 5).Draw(t, "keys")
		var members []string
		for i := range n {
			members = append(members, space("s1")+strconv.Quote("k"+strconv.Itoa(i))+space("s2")+":"+space("s3")+genValue(t, 0)+space("s4"))
		}
		join := func(ms []string) string { return space("open") + "{" + strings.Join(ms, ",") + "}" + space("close") }
		without := join(members)
		withID := rapid.Bool().Draw(t, "withID")
		line := without
		want := rapid.Int64().Draw(t, "id")
		if withID {
			key := rapid.SampledFrom([]string{`"id"`, `"\u0069d"`, `"i\u0064"`}).Draw(t, "idKey")
			at := rapid.IntRange(0, n).Draw(t, "at")
			idMember := space("i1") + key + space("i2") + ":" + space("i3") + strconv.FormatInt(want, 10) + space("i4")
			line = join(append(members[:at:at], append([]string{idMember}, members[at:]...)...))
		}
		if err := CheckLine([]byte(line)); err != nil {
			t.Fatalf("the generator drew a line that is not one object: %v\n%s", err, line)
		}
		id, rest, err := splitID([]byte(line))
		if err != nil {
			t.Fatalf("%v\n%s", err, line)
		}
		if !withID {
			if id != nil || string(rest) != line {
				t.Fatalf("id %v, rest %q of %q", id, rest, line)
			}
			return
		}
		if id == nil || *id != want {
			t.Fatalf("id %v, want %d, in %q", id, want, line)
		}
		var got, exp bytes.Buffer
		if err := json.Compact(&got, rest); err != nil {
			t.Fatalf("the rest is not JSON: %v\n%q", err, rest)
		}
		_ = json.Compact(&exp, []byte(without))
		if got.String() != exp.String() {
			t.Fatalf("rest %s, want %s (line %q)", got.String(), exp.String(), line)
		}
	})
}

// splitIDByDecoder is the splitter as encoding/json's decoder would
// write it: the oracle the fuzz target compares splitID with. ids counts
// the top-level keys that decode to "id".
func splitIDByDecoder(line []byte) (id *int64, rest []byte, ids int, err error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		return nil, nil, 0, err
	}
	rest = line
	var bad error
	for dec.More() {
		start := dec.InputOffset()
		k, err := dec.Token()
		if err != nil {
			return nil, nil, 0, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, 0, err
		}
		if k != "id" {
			continue
		}
		if ids++; ids > 1 {
			continue
		}
		n, perr := strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
		if perr != nil {
			bad = perr
			continue
		}
		id = &n
		end := dec.InputOffset()
		before, after := line[:start], line[end:]
		if !bytes.HasPrefix(bytes.TrimLeft(line[start:end], " \t\r\n"), []byte(",")) {
			if t := bytes.TrimLeft(after, " \t\r\n"); len(t) > 0 && t[0] == ',' {
				after = t[1:]
			}
		}
		rest = append(append([]byte{}, before...), after...)
	}
	if _, terr := dec.Token(); terr != nil { // }
		return nil, nil, 0, terr
	}
	if _, terr := dec.Token(); !errors.Is(terr, io.EOF) {
		return nil, nil, 0, errors.New("more after the object")
	}
	return id, rest, ids, bad
}

// FuzzSplitID: on every line CheckLine accepts, splitID finds what
// encoding/json's decoder finds, and leaves a line that is still one
// JSON object.
func FuzzSplitID(f *testing.F) {
	for _, s := range []string{`{"id":5,"name":"x"}`, `{"name":"x","id":5}`, `{"\u0069d":1,"id":2}`, `{"a":{"id":1},"id":-3}`, `{ "id" : 1 }`, `{"id":1.0}`, `{}`, `{"a":"\\\"id\":"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if CheckLine(line) != nil {
			return
		}
		id, rest, err := splitID(line)
		wantID, wantRest, ids, wantErr := splitIDByDecoder(line)
		switch {
		case ids > 1:
			if err == nil || !strings.Contains(err.Error(), "given twice") {
				t.Fatalf("%d ids, error %v", ids, err)
			}
			return
		case wantErr != nil:
			if err == nil || !strings.Contains(err.Error(), "is not an integer") || len(err.Error()) > 200 {
				t.Fatalf("the decoder fails (%v), splitID says %v", wantErr, err)
			}
			return
		case err != nil:
			t.Fatalf("splitID fails (%v), the decoder does not", err)
		}
		if (id == nil) != (wantID == nil) || (id != nil && *id != *wantID) || !bytes.Equal(rest, wantRest) {
			t.Fatalf("splitID: %v %q; decoder: %v %q", id, rest, wantID, wantRest)
		}
		if CheckLine(rest) != nil {
			t.Fatalf("the line without its id is not one object: %q", rest)
		}
	})
}

// requestLine is a request of about size bytes whose one object is a
// Binding nested in depth Lists.
func requestLine(depth, size int) []byte {
	s := `{"apiVersion":"agentkourier.dev/v1alpha1","kind":"Binding","metadata":{"namespace":"a","name":"b","annotations":{"x":"` + strings.Repeat("y", size) + `"}}}`
	for range depth {
		s = `{"apiVersion":"v1","kind":"List","items":[` + s + `]}`
	}
	return []byte(`{"name":"n","system":"binding","now":"2026-11-30T10:00:00Z","id":1,"objects":[` + s + `]}`)
}

// TestRequestLine_ReadInPlace: checking a request line and taking its
// id out allocate at most one copy of the line, at every size and depth
// (the scanner's stack of a deep line comes from a pool and is counted
// too), so a reference run's own work on a line is linear in it. Bytes
// allocated, not time, are measured: they do not depend on the load.
func TestRequestLine_ReadInPlace(t *testing.T) {
	for _, c := range []struct{ depth, size int }{{0, 1 << 10}, {0, 1 << 16}, {0, 1 << 20}, {0, 4 << 20}, {100, 1 << 16}, {1000, 1 << 10}, {4000, 1 << 10}} {
		line := requestLine(c.depth, c.size)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err := CheckLine(line)
		if err == nil {
			_, _, err = splitID(line)
		}
		runtime.ReadMemStats(&after)
		require.NoError(t, err)
		got := after.TotalAlloc - before.TotalAlloc
		t.Logf("depth %d, %d bytes: %d bytes allocated (%.2f times the line)", c.depth, len(line), got, float64(got)/float64(len(line)))
		if limit := uint64(len(line)) + 512<<10; got > limit {
			t.Errorf("depth %d, %d bytes: %d bytes allocated (%.1f times the line), over %d", c.depth, len(line), got, float64(got)/float64(len(line)), limit)
		}
	}
}
