package kube_test

import (
	"fmt"

	"github.com/condengine/condengine/e2e/internal/kube"
)

// Empty cells, which kubectl prints for a Binding without a status, stay in
// their column.
func ExampleParseTable() {
	tbl, err := kube.ParseTable("" +
		"NAMESPACE   NAME   READY   REASON   CHANNEL   AGE\n" +
		"team-a      late                    C1        2s\n")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%q\n", tbl.Without("AGE"))
	// Output:
	// [["team-a" "late" "" "" "C1"]]
}
