package manifest

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each returns at most MaxProblems problems and counts the rest in one
// more, named by the file: a List of a million bad items is not held a
// second time as a million errors. It still reads the stream to its end.
func TestEach_KeepsMaxProblemsAndCountsTheRest(t *testing.T) {
	in := `{"kind":"List","items":[` + strings.Repeat(`{"kind":"A"},`, MaxProblems+49) + `{"kind":"B"}]}`
	r := NewReader(strings.NewReader(in))
	r.File = "many.json"
	read := 0
	err := Each(r, func(d *Document) error {
		read++
		if d.Header.Kind == "A" {
			return d.Fail(errors.New("bad"))
		}
		return nil
	})
	assert.Equal(t, MaxProblems+50, read, "every item is read")
	errs := Errors(err)
	require.Len(t, errs, MaxProblems+1)
	assert.Equal(t, "many.json: 49 more problems like these are not shown", errs[MaxProblems].Error())
	assert.Equal(t, "many.json: document 1, items[99] (A), line 1: bad", errs[MaxProblems-1].Error())

	var raws []json.RawMessage
	for range MaxProblems + 2 {
		raws = append(raws, json.RawMessage(`{"kind":"A"}`))
	}
	errs = Errors(EachJSON(raws, func(d *Document) error { return d.Fail(errors.New("bad")) }))
	require.Len(t, errs, MaxProblems+1)
	assert.Equal(t, "2 more problems like these are not shown", errs[MaxProblems].Error())

	assert.NoError(t, EachJSON(raws[:3], func(*Document) error { return nil }))
}

// A stream that fails to read after MaxProblems problems still ends on
// that failure, counted with the rest.
func TestEach_ReadingFailureAfterManyProblems(t *testing.T) {
	in := strings.Repeat("kind: A\n---\n", MaxProblems+1) + "kind: [\n"
	err := Each(NewReader(strings.NewReader(in)), func(d *Document) error { return d.Fail(errors.New("bad")) })
	errs := Errors(err)
	require.Len(t, errs, MaxProblems+1)
	assert.Equal(t, "2 more problems like these are not shown", errs[MaxProblems].Error())
}
