package scenario

import (
	"bytes"
	"encoding/json"

	"github.com/google/go-cmp/cmp"

	"github.com/condengine/condengine/internal/decimal"
)

// decodeExact reads a JSON status keeping every number as its decimal
// text (json.Number), never as a float64: two integers near the int64
// limit that differ by one must not compare equal.
func decodeExact(data []byte, into *map[string]any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(into)
}

// exactNumbers makes cmp compare numbers by their exact value: the same
// number written two ways (1000, 1e3, 1000.0) is equal, and any two
// different decimals differ, whatever their size, in time linear in
// their length (1e999999999 is not expanded). Text that is not a
// decimal number is compared as text.
var exactNumbers = cmp.Comparer(func(a, b json.Number) bool {
	return decimal.Equal(string(a), string(b))
})
