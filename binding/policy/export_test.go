package policy

// T0 and Status are the instant and the condition lists the writer's
// tests use, for the tests of package policy_test, which evaluate
// snapshots of package bindingtest (and bindingtest imports this
// package, so a test of package policy cannot).
var (
	T0     = t0
	Status = status
)
