package policy

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/condengine/condengine/binding"
)

func TestIsOurs_MatchesTheVocabulary(t *testing.T) {
	types := binding.Vocabulary.Types()
	assert.Len(t, types, 4)
	for _, ty := range types {
		assert.True(t, isOurs(ty.Name), ty.Name)
	}
	for _, other := range []string{"", "ready", "example.com/Audited", "Progressing"} {
		assert.Equal(t, binding.Vocabulary.Has(other), isOurs(other), other)
	}
}
