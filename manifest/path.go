package manifest

import (
	"bytes"
	"encoding"
	"encoding/json"
	"reflect"
	"regexp"
	"strconv"
	"strings"
)

// Field paths are written as kubectl writes them: keys joined by dots,
// list positions in brackets (status.conditions[1].type).

type seg struct {
	key   string
	index int // -1 for a key
}

func splitPath(p string) []seg {
	var out []seg
	for part := range strings.SplitSeq(p, ".") {
		key, rest, _ := strings.Cut(part, "[")
		if key != "" {
			out = append(out, seg{key: key, index: -1})
		}
		for rest != "" {
			num, after, _ := strings.Cut(rest, "]")
			n, err := strconv.Atoi(num)
			if err != nil {
				break
			}
			out = append(out, seg{index: n})
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return out
}

// walkJSON visits every key and every value of js in order, with the
// path of the key or value and the offset just past its first token;
// it stops when fn returns true. tok is the value's token (a string for
// a key or a string value).
func walkJSON(js []byte, fn func(path string, end int, tok json.Token) bool) {
	type frame struct {
		obj     bool
		wantKey bool
		key     string
		idx     int
	}
	var stack []frame
	path := func() string {
		var b strings.Builder
		for _, f := range stack {
			switch {
			case f.obj && !f.wantKey:
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(f.key)
			case !f.obj:
				b.WriteString("[" + strconv.Itoa(f.idx) + "]")
			}
		}
		return b.String()
	}
	done := func() {
		if len(stack) == 0 {
			return
		}
		top := &stack[len(stack)-1]
		if top.obj {
			top.wantKey = true
		} else {
			top.idx++
		}
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err != nil {
			return
		}
		end := int(dec.InputOffset())
		if n := len(stack); n > 0 && stack[n-1].obj && stack[n-1].wantKey {
			if k, ok := tok.(string); ok {
				stack[n-1].key, stack[n-1].wantKey = k, false
				if fn(path(), end, tok) {
					return
				}
				continue
			}
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			if fn(path(), end, tok) {
				return
			}
			stack = append(stack, frame{obj: tok == json.Delim('{'), wantKey: true})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			done()
		default:
			if fn(path(), end, tok) {
				return
			}
			done()
		}
	}
}

// pathAt is the path of the key or value of js that holds byte off.
func pathAt(js []byte, off int) string {
	found := ""
	walkJSON(js, func(p string, end int, _ json.Token) bool {
		if end > off {
			found = p
			return true
		}
		return false
	})
	return found
}

// offsetOf is the offset just past the key (or the start of the list
// item) at the path, or -1.
func offsetOf(js []byte, segs []seg) int {
	want := joinPath(segs)
	found := -1
	walkJSON(js, func(p string, end int, _ json.Token) bool {
		if p == want {
			found = end
			return true
		}
		return false
	})
	return found
}

// valueAt is the token of the scalar value at path (a string or a
// json.Number), or nil.
func valueAt(js []byte, path string) json.Token {
	if js == nil {
		return nil
	}
	var v json.Token
	seenKey := false
	walkJSON(js, func(p string, _ int, tok json.Token) bool {
		if p != path {
			return false
		}
		if !seenKey && !strings.HasSuffix(p, "]") {
			seenKey = true // the key itself
			return false
		}
		v = tok
		return true
	})
	return v
}

func joinPath(segs []seg) string {
	var b strings.Builder
	for _, s := range segs {
		if s.index >= 0 {
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.key)
	}
	return b.String()
}

// unknownField is the path of the first key of js, in document order,
// that type t has no field for, or "". Keys match fields as
// encoding/json matches them: exactly, else ignoring case.
func unknownField(js []byte, t reflect.Type) string {
	found := ""
	walkTyped(js, t, func(path, key, name string, _ map[string]string) bool {
		if name == "" {
			found = joinKey(path, key)
		}
		return found != ""
	})
	return found
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// walkTyped walks js beside type t, the type encoding/json would read
// it into, and calls key for each key of each mapping t reads into a
// struct: the mapping's path, the key as written, the JSON name of the
// field it sets ("" when none does) and the fields the mapping's
// earlier keys set (name to key). The walk ends when key returns true.
// Maps, interfaces and types that decode themselves are passed over:
// their keys are not fields.
func walkTyped(js []byte, t reflect.Type, key func(path, key, name string, set map[string]string) bool) {
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	walkValue(dec, t, "", key)
}

func walkValue(dec *json.Decoder, t reflect.Type, path string, visit func(path, key, name string, set map[string]string) bool) bool {
	tok, err := dec.Token()
	if err != nil {
		return true
	}
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	open := tok == json.Delim('{') || tok == json.Delim('[')
	if t == nil || t.Kind() == reflect.Interface ||
		reflect.PointerTo(t).Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler) {
		if open {
			skip(dec)
		}
		return false
	}
	switch {
	case tok == json.Delim('{') && t.Kind() == reflect.Struct:
		fields := jsonFields(t)
		set := map[string]string{}
		for dec.More() {
			k, _ := dec.Token()
			key, _ := k.(string)
			name, _ := fieldNamed(fields, key)
			if visit(path, key, name, set) {
				return true
			}
			if name != "" {
				set[name] = key
			}
			if walkValue(dec, fields[name], joinKey(path, key), visit) {
				return true
			}
		}
		_, _ = dec.Token()
	case tok == json.Delim('{') && t.Kind() == reflect.Map:
		for dec.More() {
			k, _ := dec.Token()
			key, _ := k.(string)
			if walkValue(dec, t.Elem(), joinKey(path, key), visit) {
				return true
			}
		}
		_, _ = dec.Token()
	case tok == json.Delim('[') && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array):
		for i := 0; dec.More(); i++ {
			if walkValue(dec, t.Elem(), path+"["+strconv.Itoa(i)+"]", visit) {
				return true
			}
		}
		_, _ = dec.Token()
	case open:
		skip(dec)
	}
	return false
}

// joinKey is the path of key inside the value at path.
func joinKey(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// lookupField is the type of the field named key, matched as
// encoding/json matches it (see fieldNamed).
func lookupField(fields map[string]reflect.Type, key string) (reflect.Type, bool) {
	name, ok := fieldNamed(fields, key)
	return fields[name], ok
}

// skip reads the rest of an object or list whose opening token was read.
func skip(dec *json.Decoder) {
	for depth := 1; depth > 0; {
		tok, err := dec.Token()
		if err != nil {
			return
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
}

// jsonFields maps the JSON names of a struct's fields to their types,
// the fields of embedded structs without a name of their own included.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			for k, v := range jsonFields(ft) {
				if _, ok := out[k]; !ok {
					out[k] = v
				}
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

// yamlLineOf finds the line (from 1) of the key or list item at the path
// in a YAML document, by looking for each key after the line of its
// parent and counting block list items; 0 when it is not found. It
// reads the text, not a parse tree, which is enough to point at a field
// the decoder named.
func yamlLineOf(src []byte, segs []seg) int {
	lines := strings.Split(string(src), "\n")
	cur, col := 0, 0
	for _, s := range segs {
		if s.index >= 0 {
			if i := yamlItem(lines, cur, col, s.index); i >= 0 {
				cur, col = i, 0
			}
			continue
		}
		re := regexp.MustCompile(`(^|[\s{,\-])["']?` + regexp.QuoteMeta(s.key) + `["']?\s*:(\s|$)`)
		found := false
		for i := cur; i < len(lines); i++ {
			from := 0
			if i == cur {
				from = min(col, len(lines[i]))
			}
			if loc := re.FindStringIndex(lines[i][from:]); loc != nil {
				cur, col, found = i, from+loc[1], true
				break
			}
		}
		if !found {
			return 0
		}
	}
	return cur + 1
}

// yamlItem is the line of the n-th item (from 0) of the block list that
// follows line cur, or -1 (a flow list keeps its parent's line).
func yamlItem(lines []string, cur, col, n int) int {
	if col < len(lines[cur]) && strings.Contains(lines[cur][col:], "[") {
		return -1
	}
	indent := -1
	count := 0
	for i := cur; i < len(lines); i++ {
		body := strings.TrimLeft(lines[i], " ")
		if body == "" || body[0] == '#' {
			continue
		}
		in := len(lines[i]) - len(body)
		if i == cur {
			if strings.HasPrefix(body, "- ") && col <= in {
				indent = in
			} else {
				continue
			}
		}
		if indent < 0 {
			if !strings.HasPrefix(body, "-") {
				return -1
			}
			indent = in
		}
		if in < indent {
			return -1
		}
		if in == indent && strings.HasPrefix(body, "-") {
			if count == n {
				return i
			}
			count++
		}
	}
	return -1
}
