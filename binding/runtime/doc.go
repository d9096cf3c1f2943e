// Package runtime is the old name of package binding/policy, kept so
// code written against it still builds while it moves.
//
// Every name here is an alias of the same name in binding/policy, and
// the writer's log texts keep their old spellings (Reason, ReasonBackoff,
// …, now policy.LogText, policy.LogBackoff, …). Two things did not
// survive the move and have no alias: Decision.Reason is Decision.Log,
// and Limits.CardLimit is gone (the card size is binding.MaxCardBytes).
// RunScenario moved to bindingtest.Run, and the scenario's writer
// and prober blocks (WriterBlock, ProberBlock, ParseWriterBlock,
// ParseProberBlock and their parts) to package scenario, which reads
// them with the rest of the file.
//
// The package will be removed in the minor version after the first one
// that carries it; the CHANGELOG says which.
//
// Deprecated: import github.com/condengine/condengine/binding/policy,
// whose name does not shadow apimachinery's runtime package.
package runtime
