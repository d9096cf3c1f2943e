// Package suggest finds the word a slip of the keyboard was meant to
// be, for the "did you mean" of the commands and of kind lookup.
package suggest

// Nearest returns the candidate closest to word by edit distance, or ""
// when none is close enough to be a slip of the keyboard: at most one
// edit per four letters plus one, and never fewer than two. Ties go to
// the first candidate, so the answer depends on nothing but the order
// given.
func Nearest(word string, candidates []string) string {
	best, bestDist := "", max(len(word)/4+1, 2)+1
	for _, c := range candidates {
		if d := editDistance(word, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b, byte by byte
// (command names and kinds are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
