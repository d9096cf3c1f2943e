package finops_test

import (
	"encoding/json"
	"maps"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
	"sigs.k8s.io/yaml"

	"github.com/condengine/condengine/finops"
)

// configMapBody is the apply body of the pricing ConfigMap holding data,
// as a client that encodes with encoding/json (controller-runtime's
// Apply) builds it.
func configMapBody(t interface{ Fatal(...any) }, data string) []byte {
	b, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"namespace": "finops-system", "name": finops.PricingConfigMap},
		"data":     map[string]string{finops.PricingKey: data}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readBack reads a ConfigMap apply body as the API server does (YAML),
// then the stored ConfigMap as the engine does.
func readBack(body []byte) (map[string]string, error) {
	js, err := yaml.YAMLToJSON(body)
	if err != nil {
		return nil, err
	}
	s, err := finops.Decode(js)
	if err != nil {
		return nil, err
	}
	return s.PricingDocument, nil
}

// A percent book's rate holding U+009C reaches the document as written;
// the document's text carries it escaped, so the ConfigMap apply is read
// by the API server's reader and the document read back is the book's.
func TestPricingData_RateWithC1Control_ReadBackAsWritten(t *testing.T) {
	s, err := finops.Decode([]byte(`
apiVersion: finops.stakater.com/v1alpha1
kind: PriceBook
metadata: {namespace: finops, name: standard, generation: 1, annotations: {finops.stakater.com/active: "true"}}
spec: {currency: EUR, valuationMode: percent, rates: {cpuHour: "0.5\u009c", gpuHour: "\u007f\u0085\uffff"}}
`))
	require.NoError(t, err)
	s.Now = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	settled, _, err := finops.Settle(s, 10)
	require.NoError(t, err)
	doc := settled.PricingDocument
	require.Equal(t, "0.5\u009c", doc["CPU"], "the rate reaches the document as written")

	raw, err := json.Marshal(doc)
	require.NoError(t, err)
	_, err = readBack(configMapBody(t, string(raw)))
	assert.ErrorContains(t, err, "control characters are not allowed", "encoding/json alone leaves the character raw")

	data, err := finops.PricingData(doc)
	require.NoError(t, err)
	assert.Contains(t, data, `"0.5\u009c"`)
	got, err := readBack(configMapBody(t, data))
	require.NoError(t, err)
	assert.Equal(t, doc, got)
}

// Whatever the document holds, its text rides in a ConfigMap apply body
// through the API server's reader and reads back as the same document.
func TestPricingData_PropertyReadBackAsWritten(t *testing.T) {
	odd := []rune{0x01, '\t', '\n', '"', '\\', 0x7f, 0x80, 0x85, 0x9c, 0x9f, 0x2028, 0x2029, 0xfeff, 0xfffe, 0xffff, 0x1f600}
	text := rapid.OneOf(rapid.String(), rapid.StringOf(rapid.OneOf(rapid.SampledFrom(odd), rapid.Rune())))
	rapid.Check(t, func(t *rapid.T) {
		doc := rapid.MapOf(text, text).Draw(t, "doc")
		data, err := finops.PricingData(doc)
		if err != nil {
			t.Fatal(err)
		}
		got, err := readBack(configMapBody(t, data))
		if err != nil {
			t.Fatalf("read back %q: %v", data, err)
		}
		want := make(map[string]string, len(doc))
		for k, v := range doc {
			if !utf8.ValidString(k) || !utf8.ValidString(v) {
				return // JSON carries text, not bytes
			}
			want[k] = v
		}
		if !maps.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("wrote %q, read back %q", want, got)
		}
	})
}
