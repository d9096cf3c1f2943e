package conformance_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/condengine/condengine/conformance"
)

// schema is a JSON Schema, read with the keywords the protocol's schemas
// use: type, enum, required, properties, additionalProperties, items,
// minLength, minimum, pattern, format date-time, oneOf and local $ref.
type schema map[string]any

func loadSchema(t *testing.T, path string) schema {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s schema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return s
}

// validate returns the first way v breaks s; root resolves $ref.
func validate(root, s schema, v any, at string) error {
	if ref, ok := s["$ref"].(string); ok {
		name, found := strings.CutPrefix(ref, "#/$defs/")
		defs, _ := root["$defs"].(map[string]any)
		sub, _ := defs[name].(map[string]any)
		if !found || sub == nil {
			return fmt.Errorf("%s: unresolved $ref %q", at, ref)
		}
		return validate(root, sub, v, at)
	}
	if t, ok := s["type"]; ok {
		var types []string
		switch x := t.(type) {
		case string:
			types = []string{x}
		case []any:
			for _, e := range x {
				types = append(types, e.(string))
			}
		}
		if !slices.Contains(types, jsonType(v)) && !(jsonType(v) == "integer" && slices.Contains(types, "number")) {
			return fmt.Errorf("%s: %s, want %v", at, jsonType(v), types)
		}
	}
	if enum, ok := s["enum"].([]any); ok && !slices.ContainsFunc(enum, func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(v) }) {
		return fmt.Errorf("%s: %v is not one of %v", at, v, enum)
	}
	if str, ok := v.(string); ok {
		if n, ok := s["minLength"].(float64); ok && len([]rune(str)) < int(n) {
			return fmt.Errorf("%s: shorter than %v", at, n)
		}
		if p, ok := s["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(str) {
			return fmt.Errorf("%s: %q does not match %s", at, str, p)
		}
		if s["format"] == "date-time" {
			if _, err := time.Parse(time.RFC3339Nano, str); err != nil {
				return fmt.Errorf("%s: %q is not a date-time", at, str)
			}
		}
	}
	if n, ok := v.(json.Number); ok {
		if m, ok := s["minimum"].(float64); ok {
			if r, ok := new(big.Rat).SetString(string(n)); ok && r.Cmp(new(big.Rat).SetFloat64(m)) < 0 {
				return fmt.Errorf("%s: %s is below %v", at, n, m)
			}
		}
	}
	if obj, ok := v.(map[string]any); ok {
		for _, r := range asList(s["required"]) {
			if _, ok := obj[r.(string)]; !ok {
				return fmt.Errorf("%s: %q is required", at, r)
			}
		}
		props, _ := s["properties"].(map[string]any)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			sub, ok := props[k].(map[string]any)
			if !ok {
				if s["additionalProperties"] == false {
					return fmt.Errorf("%s: key %q is not allowed", at, k)
				}
				continue
			}
			if err := validate(root, sub, obj[k], at+"."+k); err != nil {
				return err
			}
		}
	}
	if list, ok := v.([]any); ok {
		if items, ok := s["items"].(map[string]any); ok {
			for i, e := range list {
				if err := validate(root, items, e, fmt.Sprintf("%s[%d]", at, i)); err != nil {
					return err
				}
			}
		}
	}
	if one := asList(s["oneOf"]); len(one) > 0 {
		n := 0
		for _, o := range one {
			if validate(root, o.(map[string]any), v, at) == nil {
				n++
			}
		}
		if n != 1 {
			return fmt.Errorf("%s: matches %d of oneOf, want exactly 1", at, n)
		}
	}
	return nil
}

func asList(v any) []any { l, _ := v.([]any); return l }

func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if _, err := x.Int64(); err == nil || !strings.ContainsAny(string(x), ".eE") {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func decodeLine(t *testing.T, line []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// The JSON Schemas of the protocol accept the requests conform sends and
// the answers the engine gives, of both systems, and refuse answers an
// implementation gets wrong.
func TestSchemas_ValidateRealRequestsAndAnswers(t *testing.T) {
	req := loadSchema(t, "schema/request.schema.json")
	ans := loadSchema(t, "schema/answer.schema.json")
	for _, sys := range conformance.SeedSystems() {
		for seed := range 60 {
			f, err := conformance.Generate(sys, seed)
			if err != nil {
				t.Fatal(err)
			}
			line, err := conformance.EncodeRequest(int64(seed+1), f)
			if err != nil {
				t.Fatal(err)
			}
			if err := validate(req, req, decodeLine(t, line), "request"); err != nil {
				t.Errorf("%s seed %d: the request schema refuses a real request: %v", sys.Name, seed, err)
			}
			objs, err := conformance.Reference(sys)(f)
			if err != nil {
				t.Fatal(err)
			}
			a, err := conformance.EncodeReply(int64(seed+1), objs, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := validate(ans, ans, decodeLine(t, a), "answer"); err != nil {
				t.Errorf("%s seed %d: the answer schema refuses the engine's answer: %v", sys.Name, seed, err)
			}
		}
	}
	refusal, _ := conformance.EncodeReply(3, nil, errors.New("cannot"))
	if err := validate(ans, ans, decodeLine(t, refusal), "answer"); err != nil {
		t.Errorf("the answer schema refuses an error answer: %v", err)
	}
	for name, line := range map[string]string{
		"no id":            `{"objects":[]}`,
		"both":             `{"id":1,"objects":[],"error":"x"}`,
		"unknown key":      `{"id":1,"objects":[],"verdict":"ok"}`,
		"no message":       `{"id":1,"objects":[{"kind":"Binding","name":"a","conditions":[{"type":"Ready","status":"True","reason":"OK","lastTransitionTime":"2026-11-30T10:00:00Z"}]}]}`,
		"bad status":       `{"id":1,"objects":[{"kind":"Binding","name":"a","conditions":[{"type":"Ready","status":"true","reason":"OK","message":"","lastTransitionTime":"2026-11-30T10:00:00Z"}]}]}`,
		"negative gen":     `{"id":1,"objects":[{"kind":"Binding","name":"a","conditions":[{"type":"Ready","status":"True","reason":"OK","message":"","lastTransitionTime":"2026-11-30T10:00:00Z","observedGeneration":-1}]}]}`,
		"write not a bool": `{"id":1,"objects":[{"kind":"Binding","name":"a","conditions":[],"write":"yes"}]}`,
	} {
		if err := validate(ans, ans, decodeLine(t, []byte(line)), "answer"); err == nil {
			t.Errorf("%s: the answer schema accepts %s", name, line)
		}
	}
}
