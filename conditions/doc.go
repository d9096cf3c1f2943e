// Package conditions is the engine every kind in condengine stands on: the
// vocabulary table of a kind's condition types and reasons, the merge that
// turns the conditions an evaluator wants into the exact list to write,
// and the validation of a list against the vocabulary.
//
// # Vocabulary
//
// A Vocabulary lists a kind's condition types in the order they are
// written, and for each type the closed set of (status, reason) pairs it
// may carry, each with a one-line meaning, what to do, and whether it is
// terminal. The reason tables in docs/, the validator, the compliance
// checker (package conditions/check) and the command-line tool read the
// same value, so they cannot drift apart.
//
// # Merge
//
// Vocabulary.Merge applies the mutation rules listed on it: time moves
// only with status, a stale snapshot writes nothing, another writer's
// conditions are kept after ours, and the result comes in the
// vocabulary's order. It reports whether a write is due and does not
// allocate when none is.
//
// # Validate
//
// Vocabulary.Validate runs apimachinery's ValidateConditions and then the
// vocabulary's rules, returning a field.ErrorList with full paths such as
// status.conditions[2].reason.
//
// # Provenance
//
// Each evaluator declares its decision rules once, as a table of Rule
// (a stable ID such as binding/accepted/channel-conflict and one
// sentence), and its Explain function returns, beside every condition, a
// Provenance: the rule that decided it, the condition it was derived from
// when there is one, and the Evidence - each object read (kind,
// namespace, name, UID, generation) with the fields and values that
// decided. Vocabulary.Attach lines the entries up with the conditions an
// outcome carries, adding the shared rules for a stale snapshot and for
// another writer's conditions. Evidence is raw and may name other
// namespaces' objects and hosts: it is for logs and tools, never a
// status. Evaluate does not record it, so the unchanged path stays free
// of allocations.
//
// Nothing in this package reads a clock, does I/O or keeps state between
// calls: now and generation are arguments.
package conditions
