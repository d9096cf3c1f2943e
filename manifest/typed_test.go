package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
)

// akSlot hands out a fresh Agent Kourier object of the served version,
// recording it in got.
func akSlot(got *[]any) Slot {
	return func(apiVersion, kind string) any {
		if apiVersion != akv1.APIVersion {
			return nil
		}
		var v any
		switch kind {
		case akv1.KindBinding:
			v = new(akv1.Binding)
		case akv1.KindAgentBackend:
			v = new(akv1.AgentBackend)
		case akv1.KindChatConnection:
			v = new(akv1.ChatConnection)
		default:
			return nil
		}
		*got = append(*got, v)
		return v
	}
}

// readTyped reads every document of data, straight where NextTyped takes
// it and in full (ExpandNew, Unmarshal) otherwise, or in full only. It
// returns the objects (an unknown kind as its header), how many
// documents were decoded straight, and the first error's text.
func readTyped(data []byte, straight bool) (objs []any, decoded int, problem string) {
	r := NewReader(bytes.NewReader(data))
	r.File = "fuzz.yaml"
	r.Limits = fuzzLimits
	var seen Identities
	var staged []any
	slot := akSlot(&staged)
	for {
		staged = staged[:0]
		var d *Document
		var typed bool
		var err error
		if straight {
			d, typed, err = r.NextTyped(&seen, slot)
		} else {
			d, err = r.Next()
		}
		if errors.Is(err, io.EOF) {
			return objs, decoded, ""
		}
		if err != nil {
			return objs, decoded, err.Error()
		}
		if typed {
			decoded++
			objs = append(objs, staged...)
			continue
		}
		err = d.ExpandNew(&seen, func(it *Document) error {
			var one []any
			v := akSlot(&one)(it.Header.APIVersion, it.Header.Kind)
			if v == nil {
				objs = append(objs, it.Header.String())
				return nil
			}
			if err := it.Unmarshal(v); err != nil {
				return err
			}
			objs = append(objs, v)
			return nil
		})
		if err != nil {
			return objs, decoded, err.Error()
		}
	}
}

const typedSeed = `apiVersion: agentkourier.dev/v1alpha1
kind: ChatConnection
metadata: {namespace: team-0, name: slack, uid: c-0, generation: 1, creationTimestamp: "2026-11-01T00:00:00Z"}
spec: {platform: slack, tokenSecretRef: {name: slack-bot-token, key: token}}
---
apiVersion: agentkourier.dev/v1alpha1
kind: Binding
metadata:
  namespace: team-0
  name: chat-1
  uid: 6f1c2a3b-00000001-4000-8000-000000000000
  generation: 2
  labels: {app: chat}
  creationTimestamp: "2026-11-29T00:00:01Z"
spec:
  agent: {backendRef: {name: echo}}
  chat: {connectionRef: {name: slack}, channel: C0000001}
status:
  conditions:
  - {type: Accepted, status: "True", reason: OK, observedGeneration: 1, lastTransitionTime: "2026-11-29T12:00:00Z"}
  - {type: Ready, status: Unknown, reason: Pending, observedGeneration: 1}
`

const typedJSONSeed = `{
    "apiVersion": "v1",
    "items": [
        {
            "apiVersion": "agentkourier.dev/v1alpha1",
            "kind": "Binding",
            "metadata": {"name": "chat-1", "namespace": "team-0", "generation": 1},
            "spec": {"agent": {"backendRef": {"name": "echo"}}, "chat": {"channel": "C1", "connectionRef": {"name": "slack"}}}
        },
        {
            "apiVersion": "agentkourier.dev/v1alpha1",
            "kind": "AgentBackend",
            "metadata": {"name": "echo", "namespace": "team-0"},
            "spec": {"url": "https://echo.team-0.svc.cluster.local"}
        }
    ],
    "kind": "List",
    "metadata": {"resourceVersion": ""}
}`

// The seeds are decoded straight, every document of them, to the
// objects of the full reading.
func TestNextTyped_DecodesTheSeedsStraight(t *testing.T) {
	for name, tc := range map[string]struct {
		in      string
		decoded int
	}{
		"YAML stream": {typedSeed, 2},
		// A JSON List is read item by item: each item is a document.
		"kubectl List":                  {typedJSONSeed, 2},
		"List then YAML, a name again":  {typedJSONSeed + "\n---\n" + typedSeed, 3},
		"a List twice":                  {typedJSONSeed + "\n---\n" + typedJSONSeed, 2},
		"a word YAML 1.1 reads as true": {strings.Replace(typedSeed, "reason: OK", "reason: yes", 1), 1},
	} {
		t.Run(name, func(t *testing.T) {
			want, full, wantErr := readTyped([]byte(tc.in), false)
			got, decoded, gotErr := readTyped([]byte(tc.in), true)
			if full != 0 || decoded != tc.decoded {
				t.Errorf("%d documents decoded straight, want %d", decoded, tc.decoded)
			}
			if gotErr != wantErr || !reflect.DeepEqual(got, want) {
				t.Fatalf("straight: %s %v\nfull: %s %v", gotErr, show(got), wantErr, show(want))
			}
		})
	}
}

func show(objs []any) string {
	var b strings.Builder
	for _, o := range objs {
		fmt.Fprintf(&b, "%+v\n", o)
	}
	return b.String()
}

// FuzzNextTyped holds NextTyped to the full reading: the same objects in
// the same order, or the same error.
//
//	go test ./manifest -run '^$' -fuzz '^FuzzNextTyped$' -fuzztime 60s
func FuzzNextTyped(f *testing.F) {
	f.Add([]byte(typedSeed))
	f.Add([]byte(typedJSONSeed))
	f.Add([]byte(typedJSONSeed + "\n---\n" + typedSeed))
	f.Add([]byte(strings.ReplaceAll(typedSeed, `"`, "")))
	f.Fuzz(func(t *testing.T, data []byte) {
		want, _, wantErr := readTyped(data, false)
		got, _, gotErr := readTyped(data, true)
		if gotErr != wantErr || !reflect.DeepEqual(got, want) {
			t.Fatalf("straight: %s %v\nfull: %s %v", gotErr, show(got), wantErr, show(want))
		}
	})
}

// A key in another case than its field's sets that field in the full
// reading (encoding/json matches names without regard to case), and
// beside the field's own key it is refused there as the field given
// twice. The straight decode matches names exactly, as the API server
// does, so it takes neither: each goes to the full reading, and reads
// as it does there. Before, the straight decode let the later key win,
// so an object could rename itself (metadata Name after name).
func TestNextTyped_KeyInAnotherCaseTakesTheFullReading(t *testing.T) {
	const head = `{"apiVersion":"agentkourier.dev/v1alpha1","kind":"Binding",`
	for name, tc := range map[string]struct{ in, problem string }{
		"Name after name": {head + `"metadata":{"namespace":"a","name":"b1","Name":"zz","uid":"u"}}`,
			`metadata.name: given twice on line 1, as "name" and as "Name"`},
		"Metadata after metadata": {head + `"metadata":{"namespace":"a","name":"b1","uid":"u"},"Metadata":{"namespace":"a","name":"zz"}}`,
			`metadata: given twice on line 1, as "metadata" and as "Metadata"`},
		"Spec after spec": {head + `"metadata":{"namespace":"a","name":"b1"},"spec":{"chat":{"channel":"C1"}},"Spec":{"chat":{"channel":"C2"}}}`,
			`spec: given twice on line 1, as "spec" and as "Spec"`},
		"Name alone":   {head + `"metadata":{"namespace":"a","Name":"b1"}}`, ""},
		"in a List":    {`{"items":[` + head + `"metadata":{"namespace":"a","name":"b1","Name":"zz"}}],"kind":"List"}`, `items[0], line 1: metadata.name: given twice on line 1, as "name" and as "Name"`},
		"labels alike": {head + `"metadata":{"namespace":"a","name":"b1","labels":{"App":"x","app":"y"}}}`, ""},
	} {
		t.Run(name, func(t *testing.T) {
			want, _, wantErr := readTyped([]byte(tc.in), false)
			got, decoded, gotErr := readTyped([]byte(tc.in), true)
			if gotErr != wantErr || !reflect.DeepEqual(got, want) {
				t.Fatalf("straight: %s %v\nfull: %s %v", gotErr, show(got), wantErr, show(want))
			}
			if !strings.Contains(gotErr, tc.problem) || (tc.problem == "") != (gotErr == "") {
				t.Fatalf("error %q, want %q", gotErr, tc.problem)
			}
			if strings.Contains(name, "alike") != (decoded == 1) {
				t.Errorf("%d documents decoded straight", decoded)
			}
		})
	}
}

// The straight decoder checks fields, not the JSON a field keeps as it
// was written (metadata.managedFields[].fieldsV1): a key given twice in
// it is found by a scan, as the full reading finds it.
func TestNextTyped_KeyGivenTwiceInKeptJSONIsRefused(t *testing.T) {
	const obj = `{"apiVersion":"agentkourier.dev/v1alpha1","kind":"AgentBackend","metadata":{"namespace":"a","name":"b","managedFields":[{"manager":"m","fieldsV1":{"f:spec":{},"f:spec":{}}}]}}`
	want, _, wantErr := readTyped([]byte(obj), false)
	got, decoded, gotErr := readTyped([]byte(obj), true)
	if gotErr != wantErr || !reflect.DeepEqual(got, want) || decoded != 0 {
		t.Fatalf("straight (%d): %s %v\nfull: %s %v", decoded, gotErr, show(got), wantErr, show(want))
	}
	if !strings.Contains(gotErr, "metadata.managedFields[0].fieldsV1.f:spec: given twice on line 1") {
		t.Fatalf("error %q", gotErr)
	}
	// Without the repeat, the object is decoded straight.
	ok := strings.Replace(obj, `"f:spec":{},"f:spec":{}`, `"f:spec":{}`, 1)
	if _, decoded, err := readTyped([]byte(ok), true); decoded != 1 || err != "" {
		t.Fatalf("decoded %d, error %q", decoded, err)
	}
}

// rawIn finds JSON kept as written and values of an interface type
// wherever a type may hold them, and nothing in types that hold neither
// or hold none at the moment.
func TestRawIn(t *testing.T) {
	type self struct {
		Next  *self           `json:"next"`
		Raw   json.RawMessage `json:"raw"`
		Skip  any             `json:"-"`
		quiet any
	}
	type holder struct {
		When  metav1.Time         `json:"when"`
		Any   any                 `json:"any"`
		List  []self              `json:"list"`
		ByKey map[string]self     `json:"byKey"`
		Arr   [1]*self            `json:"arr"`
		Meta  metav1.ObjectMeta   `json:"metadata"`
		Words map[string][]string `json:"words"`
	}
	for name, tc := range map[string]struct {
		v    any
		want rawState
	}{
		"nothing set":         {&holder{When: metav1.Now(), Words: map[string][]string{"a": {"b"}}}, rawNone},
		"any":                 {&holder{Any: 1}, rawOther},
		"raw in a list":       {&holder{List: []self{{}, {Raw: json.RawMessage(`{}`)}}}, rawKept},
		"raw deep":            {&holder{List: []self{{Next: &self{Next: &self{Raw: json.RawMessage(`1`)}}}}}, rawKept},
		"raw in a map":        {&holder{ByKey: map[string]self{"k": {Raw: json.RawMessage(`1`)}}}, rawKept},
		"raw in an array":     {&holder{Arr: [1]*self{{Raw: json.RawMessage(`1`)}}}, rawKept},
		"raw and any":         {&holder{Any: 1, List: []self{{Raw: json.RawMessage(`1`)}}}, rawOther},
		"managedFields":       {&holder{Meta: metav1.ObjectMeta{ManagedFields: []metav1.ManagedFieldsEntry{{FieldsV1: metav1.NewFieldsV1(`{}`)}}}}, rawKept},
		"skipped fields":      {&self{Skip: 1, quiet: 1}, rawNone},
		"a type without any":  {&akv1.Binding{}, rawNone},
		"a plain value":       {new(int), rawNone},
		"a time":              {&metav1.Time{}, rawNone},
		"raw itself":          {&json.RawMessage{'1'}, rawKept},
		"an interface itself": {new(any), rawNone},
	} {
		t.Run(name, func(t *testing.T) {
			if got := rawIn(reflect.ValueOf(tc.v)); got != tc.want {
				t.Fatalf("rawIn = %d, want %d", got, tc.want)
			}
		})
	}
}
