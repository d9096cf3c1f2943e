package main

import (
	"strings"
	"testing"
)

func TestDemo_Golden(t *testing.T) {
	runGolden(t, "demo.txt", "demo")
}

// The demo shows the two rows of the seed's table.
func TestDemo_ShowsTheSeedRows(t *testing.T) {
	_, out, _ := run(t, "", "demo")
	for _, row := range [][]string{
		{"team-a", "team-a-chat", "True", "OK", "C2", "4m"},
		{"team-a", "late", "False", "Accepted:ChannelConflict", "C1"},
	} {
		found := false
		for _, line := range strings.Split(out, "\n") {
			if f := strings.Fields(line); len(f) >= len(row) && strings.Join(f[:len(row)], " ") == strings.Join(row, " ") {
				found = true
			}
		}
		if !found {
			t.Errorf("no row %q in:\n%s", row, out)
		}
	}
	if !strings.Contains(out, "already bound by a Binding in another namespace") {
		t.Error("the refused Binding's message is missing")
	}
}

// The demo's data are scenario files whose expectations hold: the demo
// cannot drift into showing something the engine does not compute.
func TestDemo_DataHoldsItsExpectations(t *testing.T) {
	code, out, _ := run(t, "", "check", "demo")
	if code != exitOK || out != "2 passed, 0 failed\n" {
		t.Fatalf("code %d:\n%s", code, out)
	}
}
