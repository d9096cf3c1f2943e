package policy

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/condengine/condengine/binding"
)

func TestOurTypes_MatchTheVocabulary(t *testing.T) {
	var names []string
	for _, ty := range binding.Vocabulary.Types() {
		names = append(names, ty.Name)
	}
	assert.Equal(t, names, ourTypes[:])
}
