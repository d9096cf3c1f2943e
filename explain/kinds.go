package explain

import (
	"fmt"
	"slices"
	"strings"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
)

// kinds are the kinds with conditions and the names a kubectl user types
// for each: the lower-case kind (the CRD's singular), the plural and the
// short names the CRD declares (config/crd; a test holds them equal).
// "akbindings" is kept because the plugin accepted it before the table was
// shared.
var kinds = []struct {
	kind, group string
	names       []string
}{
	{akv1.KindBinding, akv1.GroupName, []string{"binding", "bindings", "akbinding", "akbindings"}},
	{finopsv1.KindPriceBook, finopsv1.GroupName, []string{"pricebook", "pricebooks"}},
	{finopsv1.KindOffering, finopsv1.GroupName, []string{"offering", "offerings"}},
	{finopsv1.KindSubscription, finopsv1.GroupName, []string{"subscription", "subscriptions"}},
}

// Kind returns the kind a command-line name stands for, reading it as
// kubectl does: the kind, its plural or a short name, in any case,
// optionally followed by the API group (bindings.agentkourier.dev). Only
// the kinds with conditions are known (Binding, PriceBook, Offering,
// Subscription). For any other name the error lists them and, when one is
// close, asks "did you mean".
func Kind(name string) (string, error) {
	lower := strings.ToLower(name)
	resource, group, qualified := strings.Cut(lower, ".")
	var all, known []string
	hint := ""
	for _, k := range kinds {
		known = append(known, k.kind)
		all = append(all, k.names...)
		if !slices.Contains(k.names, resource) {
			continue
		}
		if !qualified || group == k.group {
			return k.kind, nil
		}
		hint = fmt.Sprintf(" (%s is in the API group %s)", resource, k.group)
	}
	msg := fmt.Sprintf("unknown kind %q", name)
	if hint != "" {
		msg += hint
	} else if s := Nearest(resource, all); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return "", fmt.Errorf("%s; kinds with conditions: %s", msg, strings.Join(known, ", "))
}

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
