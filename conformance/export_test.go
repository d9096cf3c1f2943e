package conformance

// RuleScenarios and RuleScenario are the rule-scenario writers, for the
// external tests.
var (
	RuleScenarios = ruleScenarios
	RuleScenario  = ruleScenario
)
