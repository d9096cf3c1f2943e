package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

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
