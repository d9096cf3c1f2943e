// Package check is a compliance checker for host operators: numbered
// conventions, each with a stable ID and one sentence, run over an
// object's conditions. It returns findings instead of failing, so a host
// can assert on them in its own unit tests, log them, or count them.
//
// Rules lists the rules CE001-CE010, each with its ID, severity and one
// sentence; that list is the only place the sentences are written. The
// vocabulary's own rules (CE003 reasons, CE004 generation ceiling, CE006
// messages, CE007 order, CE008 required types) report what
// conditions.Vocabulary.Validate finds, so the checker and the validator
// cannot disagree.
//
// Transition checks a step between two writes: CT001, a terminal
// condition keeps its status and reason; CT002, lastTransitionTime moves
// exactly when status moves.
//
// Conditions of types outside the vocabulary belong to other writers;
// only the kind-neutral rules (CE001, CE002, CE004, CE005, CE009) read them.
package check
