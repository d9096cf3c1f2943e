package explain

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNearest(t *testing.T) {
	verbs := []string{"demo", "eval", "check", "vocab", "explain", "conform", "reference"}
	for word, want := range map[string]string{
		"evla": "eval", "chek": "check", "explian": "explain", "conforms": "conform",
		"refrence": "reference", "demo": "demo", "apply": "", "x": "", "": "",
	} {
		assert.Equal(t, want, Nearest(word, verbs), word)
	}
	// Ties go to the first candidate given.
	assert.Equal(t, "ab", Nearest("aa", []string{"ab", "ba"}))
	assert.Equal(t, "ba", Nearest("aa", []string{"ba", "ab"}))
}
