package vocab_test

import (
	"os"
	"slices"
	"testing"
)

func sorted(s []string) []string {
	slices.Sort(s)
	return s
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
