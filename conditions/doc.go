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
// Every kind merges through Vocabulary.MergeObject, which reads the
// object's generation and creationTimestamp itself and then applies
// Merge's rules.
//
// # Outcome
//
// Outcome is the shape every kind's evaluation answers in, embedded in
// binding.Outcome, pricebook.Outcome, offering.Outcome,
// subscription.Outcome, costjob.Outcome and provider.Outcome: the
// object's identity, the full merged Conditions, the Owned ones a
// server-side apply carries (Vocabulary.Owned: never another writer's
// type), Write or the Skip saying why not, the Finalizer action, and
// Retry at an instant. Lists of outcomes are sorted by Compare. Every
// evaluator refuses a zero now with ErrZeroNow (CheckNow).
//
// # Decisions
//
// An object made again:
// a condition of ours whose lastTransitionTime is before the object's
// creationTimestamp was written for an earlier object of the same name.
// The rule lives here, in MergeObject and Vocabulary.Held, so that no
// kind can forget it: such a condition is read as absent before any of
// Merge's rules run, so it is never kept, never lends its time and never
// makes a snapshot stale; its removal counts as a change. It is a step
// of its own in front of Merge, so Merge keeps its signature and its
// unchanged path. Evaluators that read a condition of their own to
// decide something (a kept Active, a kept CostsResolved) read it through
// Held too. Two limits, chosen on purpose: another writer's conditions
// are never dropped by this rule (their lifetime is not ours to judge),
// and a condition without a lastTransitionTime stays (it carries no
// evidence of the object it was written for).
//
//   - Merge writes observedGeneration from the generation it is given
//     when a desired condition leaves it zero: no condition of ours is
//     ever written as observing generation 0 by omission.
//   - Owned shares the list's array when ours come first (as Merge writes
//     them), capped so an append cannot write into it.
//   - Skip is one reason, the first that holds in the order Stale,
//     Unchanged, ConfigMapRoute, NotLeader, Held; Due tells a write that
//     is wanted but not made here from one that is not wanted at all.
//
// # Validate
//
// Vocabulary.Validate runs apimachinery's ValidateConditions and then the
// vocabulary's rules, returning a field.ErrorList with full paths such as
// status.conditions[2].reason.
//
// # Rules, verdicts and provenance
//
// Each kind declares its decision rules once, as Rule values: a stable ID
// such as binding/accepted/channel-conflict, the types it decides, one
// sentence, and the reasons it writes with their documentation text.
// FromRules reads a vocabulary's reasons from them. A deciding function
// returns a Verdict (the rule that fired, the message, the generation).
// Explain is Evaluate with a Recorder, which keeps each decision's rule
// and the Evidence it read; Vocabulary.Attach lines the Provenance up
// with the conditions an outcome carries, adding the shared rules for a
// stale snapshot and another writer's conditions. Evidence is raw and may
// name other namespaces' objects and hosts: it is for logs and tools,
// never a status. With a nil Recorder nothing is recorded or allocated.
//
// Nothing in this package reads a clock, does I/O or keeps state between
// calls: now and generation are arguments.
package conditions
