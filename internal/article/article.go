// Package article puts the indefinite article before a noun the program
// does not know in advance, such as a Kubernetes kind: "a Binding", "an
// AgentBackend", "an HTTPRoute", "a URLMap".
package article

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A returns noun with "a" or "an" before it, chosen by how the noun is
// read aloud: by its first letter's sound, or, when it starts with an
// initialism (two capitals, as in HTTPRoute), by the name of that letter.
// An empty noun is returned as it is.
func A(noun string) string {
	if an(noun) {
		return "an " + noun
	}
	if noun == "" {
		return ""
	}
	return "a " + noun
}

// vowelNamed are the capitals whose names begin with a vowel sound ("an
// F", "an S"), for a noun read letter by letter.
const vowelNamed = "AEFHILMNORSX"

// youSound are the starts of words whose first vowel is read as "you" or
// "won": a Unit, a User, a European, a OneTimeJob.
var youSound = []string{"uni", "use", "usa", "usu", "uti", "ura", "uri", "eu", "one", "once"}

// silentH are the starts of words whose h is not sounded: an Hour.
var silentH = []string{"hour", "honest", "honor", "honour", "heir"}

// vowels are the lower-case vowels of the Latin alphabets, accented ones
// included (an Élan).
const vowels = "aeiouàáâãäåæèéêëìíîïòóôõöøùúûüœ"

func an(noun string) bool {
	first, size := utf8.DecodeRuneInString(noun)
	if first == utf8.RuneError {
		return false
	}
	if second, _ := utf8.DecodeRuneInString(noun[size:]); unicode.IsUpper(first) && unicode.IsUpper(second) {
		return strings.ContainsRune(vowelNamed, first)
	}
	lower := strings.ToLower(noun)
	for _, p := range silentH {
		if strings.HasPrefix(lower, p) {
			return true
		}
	}
	for _, p := range youSound {
		if strings.HasPrefix(lower, p) {
			return false
		}
	}
	return strings.ContainsRune(vowels, unicode.ToLower(first))
}
