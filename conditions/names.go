package conditions

// Names every kind shares. Each kind's vocabulary refers to these rather
// than spelling them again, so "Ready" is written once in the module.
const (
	// TypeReady is the summary condition every kind writes.
	TypeReady = "Ready"
	// ReasonValidationSucceeded is Ready's True reason on the FinOps
	// kinds whose spec passed every check.
	ReasonValidationSucceeded = "ValidationSucceeded"
	// ReasonValidationError is the False reason of a FinOps kind whose
	// spec could not be read or checked.
	ReasonValidationError = "ValidationError"
)
