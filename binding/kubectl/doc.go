// Package kubectl renders what `kubectl get akbinding -A` shows for a set
// of Bindings, and holds the CRD printer columns that make a real kubectl
// show the same thing. Tests and the command-line tool use it to state
// what a user sees without running an API server. Get returns the table
// as one string; Write prints it a line at a time, for a large set.
//
// # Decisions
//
//   - READY and REASON come from the first Ready condition, as the API
//     server's table conversion takes the first JSONPath match; without
//     one both cells are empty.
//   - AGE follows the API server's date column: apimachinery's
//     HumanDuration of now minus creationTimestamp, "<unknown>" without a
//     creation time. Under two minutes it prints seconds (90s), so the
//     "1m" of the documentation's example cannot occur.
//   - Rows are sorted by namespace, name, then UID, the order the API
//     server lists them in; the input order does not matter.
//   - Tabs and line breaks inside a cell become spaces so that no value
//     can forge a row.
package kubectl
