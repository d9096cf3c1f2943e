// Package conditions is the engine every kind in condengine stands on.
// A kind declares its rules; the package turns them into the kind's
// vocabulary, merges what the kind decided into the exact condition list
// to write, and validates a list against the vocabulary.
//
// # Rules and vocabulary
//
// Each kind declares its decision rules once, as Rule values: a stable ID
// such as binding/accepted/channel-conflict, the types it decides, one
// sentence, and the reasons it writes (Reason: status, reason, meaning,
// action, terminal flag, fixed message). NewVocabulary (or MustVocabulary)
// with FromRules builds the kind's Vocabulary from them: its condition
// types in written order and the closed set of pairs each may carry. The
// reason tables in docs/, the checker in conditions/check and the command
// line read that one value.
//
// # Deciding and explaining
//
// A deciding function returns a Verdict (Rule.Verdict: the rule that
// fired, the message, the generation); Verdict.Condition is what it
// merges. Explain is Evaluate with a Recorder switched on: the Recorder
// keeps each decision's rule and the Evidence it read, and
// Vocabulary.Attach lines that Provenance up with the conditions written.
// A nil Recorder records and allocates nothing. Evidence is raw: it is for
// logs and tools, never a status.
//
// # Merge and Outcome
//
// Vocabulary.MergeObject (Vocabulary.Merge with the object's generation
// and creation time) applies the mutation rules: time moves only with
// status, a stale snapshot writes nothing, another writer's conditions
// are kept after ours, the result is in the vocabulary's order, and
// nothing is allocated when nothing changes. Outcome is the answer every
// kind embeds: identity, the merged Conditions, the Owned ones an apply
// sends, Write or the Skip saying why not, the Finalizer action and
// Retry. Every evaluator refuses an unusable now (CheckNow).
//
// # Validate
//
// Vocabulary.Validate runs apimachinery's ValidateConditions and then the
// vocabulary's rules, returning a field.ErrorList with full paths such as
// status.conditions[2].reason.
//
// Nothing here reads a clock, does I/O or keeps state between calls. The
// choices the merge makes where the specification is silent (an object
// made again, observedGeneration left zero, the order of Skip) are in
// docs/decisions/conditions-merge.md.
package conditions
