package manifest

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type object struct {
	Kind     string `json:"kind"`
	Metadata struct {
		Generation        int64       `json:"generation"`
		CreationTimestamp metav1.Time `json:"creationTimestamp"`
	} `json:"metadata"`
	Spec struct {
		Period metav1.Duration `json:"period"`
		Count  uint32          `json:"count"`
	} `json:"spec"`
}

// unmarshalOne reads the one document of in into a new object and returns
// the error's text.
func unmarshalOne(t *testing.T, in string) string {
	t.Helper()
	r := NewReader(strings.NewReader(in))
	r.File = "in.yaml"
	d, err := r.Next()
	require.NoError(t, err)
	var o object
	err = d.Unmarshal(&o)
	require.Error(t, err)
	return err.Error()
}

// A number, a time or a duration that does not fit its field is named by
// file, document, line and field, with the value as the author wrote it
// and what was wanted, never in Go's terms.
func TestUnmarshal_BadValuesInTheUsersTerms(t *testing.T) {
	for in, want := range map[string]string{
		"kind: A\nmetadata:\n  generation: 100000000000000000000000000\n":                  "in.yaml: document 1, line 3: metadata.generation: must be a whole number no larger than 9223372036854775807, and 100000000000000000000000000 is larger",
		"{\"kind\": \"A\",\n \"metadata\": {\"generation\": 100000000000000000000000000}}": "in.yaml: document 1, line 2: metadata.generation: must be a whole number no larger than 9223372036854775807, and 100000000000000000000000000 is larger",
		"kind: A\nmetadata: {generation: -9223372036854775809}\n":                          "line 2: metadata.generation: must be a whole number no smaller than -9223372036854775808, and -9223372036854775809 is smaller",
		"kind: A\nmetadata: {generation: 1.5}\n":                                           "line 2: metadata.generation: must be a whole number from -9223372036854775808 to 9223372036854775807, not 1.5",
		"kind: A\nspec:\n  count: 1e20\n":                                                  "line 3: spec.count: must be a whole number no larger than 4294967295, and 1e20 is larger",
		"kind: A\nspec:\n  count: -1\n":                                                    "line 3: spec.count: must not be negative, and -1 is",
		"kind: A\nmetadata:\n  creationTimestamp: yesterday\n":                             `line 3: metadata.creationTimestamp: must be a time in RFC 3339 form, such as 2026-11-30T10:00:00Z, not "yesterday"`,
		"kind: A\nmetadata:\n  creationTimestamp: 12\n":                                    `line 3: metadata.creationTimestamp: must be a time in RFC 3339 form, such as 2026-11-30T10:00:00Z, not the number 12`,
		"kind: A\nspec:\n  period: soon\n":                                                 `line 3: spec.period: must be a duration such as 90s, 5m or 1h30m, not "soon"`,
	} {
		got := unmarshalOne(t, in)
		assert.Contains(t, got, want, in)
		for _, goText := range []string{"Go value", "2006-01-02", "1e+", "int64", "cannot unmarshal"} {
			assert.NotContains(t, got, goText, in)
		}
	}
}

// An exponent far beyond any field is refused without computing it.
func TestUnmarshal_HugeExponentIsNotExpanded(t *testing.T) {
	got := unmarshalOne(t, "{\"metadata\": {\"generation\": 1e999999999}}")
	assert.Contains(t, got, "metadata.generation: must be a whole number no larger than 9223372036854775807, and 1e999999999 is larger")
}

// A number with a fraction or an exponent is refused for an integer
// field, as the JSON decoder and the API server refuse it, even when its
// value is whole; the message says the number as written and, when it
// fits, the integer to write instead. Before, 2.0 was "larger" than the
// largest int64 (it was compared as 2 but worded as out of range) and
// 1e400 was printed with its 400 zeros.
func TestUnmarshal_NumbersWithAFractionOrExponent(t *testing.T) {
	for in, want := range map[string]string{
		`{"metadata": {"generation": 2.0}}`:                  "metadata.generation: must be a whole number written without a fraction or an exponent, such as 2, not 2.0",
		`{"metadata": {"generation": 1e2}}`:                  "metadata.generation: must be a whole number written without a fraction or an exponent, such as 100, not 1e2",
		`{"metadata": {"generation": -15E-1}}`:               "metadata.generation: must be a whole number from -9223372036854775808 to 9223372036854775807, not -15E-1",
		`{"metadata": {"generation": 0.0e9}}`:                "metadata.generation: must be a whole number written without a fraction or an exponent, such as 0, not 0.0e9",
		`{"metadata": {"generation": 1e400}}`:                "metadata.generation: must be a whole number no larger than 9223372036854775807, and 1e400 is larger",
		`{"metadata": {"generation": -1e400}}`:               "metadata.generation: must be a whole number no smaller than -9223372036854775808, and -1e400 is smaller",
		`{"metadata": {"generation": 1e-400}}`:               "metadata.generation: must be a whole number from -9223372036854775808 to 9223372036854775807, not 1e-400",
		`{"spec": {"count": 4294967296}}`:                    "spec.count: must be a whole number no larger than 4294967295, and 4294967296 is larger",
		`{"spec": {"count": 4294967295.00}}`:                 "spec.count: must be a whole number written without a fraction or an exponent, such as 4294967295, not 4294967295.00",
		`{"spec": {"count": -0.5}}`:                          "spec.count: must be a whole number from 0 to 4294967295, not -0.5",
		`{"metadata": {"generation": 9223372036854775808}}`:  "must be a whole number no larger than 9223372036854775807, and 9223372036854775808 is larger",
		`{"metadata": {"generation": -9223372036854775809}}`: "must be a whole number no smaller than -9223372036854775808, and -9223372036854775809 is smaller",
	} {
		got := unmarshalOne(t, in)
		assert.Contains(t, got, want, in)
		assert.NotContains(t, got, "(", in)
	}
}

// A number of millions of digits is worded in time linear in them, and
// called a number even where YAML, which cannot read it as one, passed
// it on as a string. Before, 4 million digits took 22.8 s
// (math/big's reading) and 2 million digits in YAML were "a string".
func TestUnmarshal_MillionsOfDigits(t *testing.T) {
	if raceDetector {
		t.Skip("measures allocation and time, which the race detector's instrumentation changes; .ci/run runs it without -race")
	}
	digits := strings.Repeat("9", 4_000_000)
	if testing.Short() {
		digits = digits[:400_000]
	}
	for name, in := range map[string]string{
		"JSON":      `{"metadata": {"generation": ` + digits + `}}`,
		"YAML":      "kind: A\nmetadata:\n  generation: " + digits + "\n",
		"YAML flow": "kind: A\nmetadata: {generation: " + digits + "}\n",
	} {
		t.Run(name, func(t *testing.T) {
			start := cpuTime()
			got := unmarshalOne(t, in)
			assert.Contains(t, got, "metadata.generation: must be a whole number no larger than 9223372036854775807, and 9999999999999999999999999999999999999\u2026 is larger")
			if !testing.Short() {
				assert.Less(t, cpuTime()-start, 5*time.Second)
			}
		})
	}
	// A word that starts with digits is still a string.
	got := unmarshalOne(t, "kind: A\nmetadata:\n  generation: 12abc\n")
	assert.Contains(t, got, `metadata.generation: must be an integer, not "12abc"`)
}
