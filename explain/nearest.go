package explain

import "github.com/condengine/condengine/internal/suggest"

// Nearest returns the candidate closest to word by edit distance, or ""
// when none is close enough to be a slip of the keyboard: at most one
// edit per four letters plus one, and never fewer than two. Ties go to
// the first candidate, so the answer depends on nothing but the order
// given.
func Nearest(word string, candidates []string) string {
	return suggest.Nearest(word, candidates)
}
