package kube

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseTable_EmptyCellsAndTwoWordHeaders(t *testing.T) {
	out := "" +
		"NAMESPACE   NAME          READY   REASON                     CHANNEL   AGE\n" +
		"team-a      late                                             C1        1m\n" +
		"team-a      team-a-chat   True    OK                         C2        4m\n" +
		"team-b      support       False   Accepted:ChannelConflict   C1        10s\n"
	got, err := ParseTable(out)
	if err != nil {
		t.Fatal(err)
	}
	want := Table{
		Header: []string{"NAMESPACE", "NAME", "READY", "REASON", "CHANNEL", "AGE"},
		Rows: [][]string{
			{"team-a", "late", "", "", "C1", "1m"},
			{"team-a", "team-a-chat", "True", "OK", "C2", "4m"},
			{"team-b", "support", "False", "Accepted:ChannelConflict", "C1", "10s"},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"", "True", "False"}, got.Column("READY")); diff != "" {
		t.Errorf("READY column (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([][]string{{"late", "C1"}, {"team-a-chat", "C2"}, {"support", "C1"}},
		got.Without("NAMESPACE", "READY", "REASON", "AGE")); diff != "" {
		t.Errorf("Without (-want +got):\n%s", diff)
	}

	two, err := ParseTable("NAME   TYPE   LAST STATUS   AGE\nnightly   Cost   Success   1s\n")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"NAME", "TYPE", "LAST STATUS", "AGE"}, two.Header); diff != "" {
		t.Errorf("header (-want +got):\n%s", diff)
	}
}

func TestParseTable_NoOutputIsAnError(t *testing.T) {
	if _, err := ParseTable(""); err == nil {
		t.Fatal("want an error for empty output")
	}
}
