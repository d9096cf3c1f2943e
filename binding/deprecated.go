package binding

// Names kept for one minor version after a rename, so code written
// against the old name still builds; staticcheck (SA1019) points at each
// use. The CHANGELOG lists them with their migration.

// BindingResult is the old name of Outcome. Its Changed and Stale fields
// did not survive: read Outcome.Skip.
//
// Deprecated: use Outcome.
type BindingResult = Outcome

// Memory is the old name of ServedMemory. Its Served field is now
// Objects.
//
// Deprecated: use ServedMemory.
type Memory = ServedMemory
