// Package check is a compliance checker for host operators: numbered
// conventions, each with a stable ID and one sentence, run over an
// object's conditions. It returns findings instead of failing, so a host
// can assert on them in its own unit tests, log them, or count them.
//
// The rules (Rules lists them with their severity):
//
//	CE001 A condition type appears at most once on an object.
//	CE002 Status is one of True, False and Unknown.
//	CE003 Each condition of the kind carries a (type, status, reason) its vocabulary lists.
//	CE004 observedGeneration is never above metadata.generation.
//	CE005 lastTransitionTime is set and falls on a whole second.
//	CE006 A message is one line of valid UTF-8 of at most 1024 bytes.
//	CE007 The kind's conditions come in its vocabulary's order.
//	CE008 Once any condition of the kind is present, every required type is present.
//	CE009 lastTransitionTime is not later than the moment of the check.
//	CE010 A condition behind metadata.generation describes an older spec (info).
//
// Transition checks a step between two writes: CT001, a terminal
// condition keeps its status and reason; CT002, lastTransitionTime moves
// exactly when status moves.
//
// Conditions of types outside the vocabulary belong to other writers;
// only the kind-neutral rules (CE001, CE002, CE004, CE005, CE009) read them.
package check
