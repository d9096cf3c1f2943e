package runtime

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseWriterBlock_BadInput(t *testing.T) {
	for name, tc := range map[string]struct{ raw, want string }{
		"UnknownKey":       {`{"bindingz": []}`, "unknown field"},
		"NotNamespaceName": {`{"bindings": [{"binding": "chat"}]}`, `"chat" is not namespace/name`},
		"TooManySlashes":   {`{"bindings": [{"binding": "a/b/c"}]}`, "is not namespace/name"},
		"NegativeFailures": {`{"bindings": [{"binding": "a/b", "failures": -1}]}`, "must not be negative"},
		"ListedTwice":      {`{"bindings": [{"binding": "a/b"}, {"binding": "a/b"}]}`, "listed twice"},
		"NegativeGap":      {`{"limits": {"writeGap": "-5s"}}`, "WriteGap is -5s"},
		"BadDuration":      {`{"limits": {"quiet": "soon"}}`, "writer"},
	} {
		t.Run(name, func(t *testing.T) {
			_, _, err := ParseWriterBlock([]byte(tc.raw))
			assert.ErrorContains(t, err, tc.want)
		})
	}
	_, lim, err := ParseWriterBlock(nil)
	require.NoError(t, err)
	assert.Equal(t, DefaultLimits(), lim)
}
