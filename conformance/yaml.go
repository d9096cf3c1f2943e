package conformance

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// topKeys is the order a scenario's keys are written in, as the corpus
// files have them; keys not listed follow in lexical order.
var topKeys = []string{"name", "system", "now", "broker", "objects", "served", "probes", "writer", "failures", "collection", "expect"}

// innerKeys puts an object's or a condition's identity first.
var innerKeys = []string{"apiVersion", "kind", "namespace", "name", "type", "status", "reason", "message"}

// toYAML renders a JSON document as block YAML: maps with their keys
// sorted (the top level in topKeys order), every string double-quoted,
// numbers as written. It parses back to the same JSON.
func toYAML(js []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	var b strings.Builder
	if m, ok := v.(map[string]any); ok && len(m) > 0 {
		writeMap(&b, m, 0, topKeys, false)
	} else {
		b.WriteString(scalar(v))
		b.WriteByte('\n')
	}
	return []byte(b.String()), nil
}

// writeMap writes m at indent; inline says the first key follows a "- "
// already written.
func writeMap(b *strings.Builder, m map[string]any, indent int, order []string, inline bool) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y string) int {
		ix, iy := slices.Index(order, x), slices.Index(order, y)
		switch {
		case ix >= 0 && iy >= 0:
			return ix - iy
		case ix >= 0:
			return -1
		case iy >= 0:
			return 1
		}
		return strings.Compare(x, y)
	})
	for i, k := range keys {
		if i > 0 || !inline {
			b.WriteString(strings.Repeat(" ", indent))
		}
		kk := key(k)
		if len(kk) > maxImplicitKey {
			// YAML reads "key:" as a key only within 1024 characters;
			// a longer key is written explicitly, "? key" then ": value".
			b.WriteString("? ")
			b.WriteString(kk)
			b.WriteByte('\n')
			b.WriteString(strings.Repeat(" ", indent))
		} else {
			b.WriteString(kk)
		}
		b.WriteByte(':')
		writeValue(b, m[k], indent)
	}
}

// maxImplicitKey is the longest key, as written, that goes before a
// plain ":"; YAML allows 1024 characters and a few are kept in hand.
const maxImplicitKey = 1000

// writeValue writes v after "key:" or "-", ending the line.
func writeValue(b *strings.Builder, v any, indent int) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			b.WriteString(" {}\n")
			return
		}
		b.WriteByte('\n')
		writeMap(b, x, indent+2, innerKeys, false)
	case []any:
		if len(x) == 0 {
			b.WriteString(" []\n")
			return
		}
		b.WriteByte('\n')
		for _, item := range x {
			b.WriteString(strings.Repeat(" ", indent))
			b.WriteString("-")
			if m, ok := item.(map[string]any); ok && len(m) > 0 {
				b.WriteByte(' ')
				writeMap(b, m, indent+2, innerKeys, true)
				continue
			}
			writeValue(b, item, indent+2)
		}
	default:
		b.WriteByte(' ')
		b.WriteString(scalar(v))
		b.WriteByte('\n')
	}
}

func scalar(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case json.Number:
		return string(x)
	case bool:
		if x {
			return "true"
		}
		return "false"
	case string:
		return yamlQuote(x)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

var plainKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.\-/]*$`)

func key(k string) string {
	switch strings.ToLower(k) {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null", "~":
		return yamlQuote(k)
	}
	if plainKey.MatchString(k) {
		return k
	}
	return yamlQuote(k)
}

// yamlQuote writes s as a double-quoted scalar. Go's escapes (\n, \t,
// \xNN, \uNNNN, \UNNNNNNNN) are all YAML escapes, and strconv escapes
// every character YAML refuses raw (C0 and C1 controls, DEL); s comes
// from decoded JSON, so it is valid UTF-8 and \xNN only ever stands for
// a code point below 0x80.
func yamlQuote(s string) string { return strconv.Quote(s) }
