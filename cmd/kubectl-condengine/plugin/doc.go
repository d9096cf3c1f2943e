// Package plugin builds the kubectl plugin of condengine for the systems
// it is given: `kubectl NAME audit` lists the objects of the systems'
// kinds in a cluster, computes the conditions each is due and prints
// every condition written otherwise, with the rule and evidence behind
// the due value; `kubectl NAME explain` prints one object's due
// conditions with their decisions; `kubectl NAME version` prints the
// build. A plugin is a Plugin value (a name, the systems); Main is the
// whole main of one:
//
//	func main() { plugin.Main("mydb", mydbtest.System()) }
//
// cmd/kubectl-condengine is that value for the two seed systems. Nothing
// here knows a system by name: the resources listed are the systems'
// kinds, the objects evaluated are handed to each system's Run, and a
// system's optional extensions say what a cluster lacks:
//
//   - References: the objects of other kinds its objects name (a
//     Subscription's target) are looked up with a get, and those that
//     exist handed over by identity.
//   - Cluster: how its objects are evaluated from a cluster alone, which
//     holds no probe results: several guesses of what it lacks (a
//     condition is judged only where they agree, the others are listed
//     as not judged), what a condition not judged depends on, and what
//     an evaluation assumed for a judged one. Without it, Run evaluates
//     the objects once and every condition is judged.
//
// # Decisions
//
//   - Only the types of a kind's vocabulary are compared; other
//     controllers' conditions are theirs. The transition time is not
//     compared: it records when a write happened.
//   - Objects are reported by kind, namespace and name; an object the
//     system answers nothing for is not reported, and one it could not
//     use at all is named, with why, apart (LeftOut).
//   - A reference to a kind one of the systems lists is not looked up:
//     such an object was listed with the others, or does not exist.
package plugin
