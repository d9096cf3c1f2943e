package runtime

import (
	"github.com/condengine/condengine/binding/policy"
)

// The types, by their policy names.
type (
	// Deprecated: use policy.Action.
	Action = policy.Action
	// Deprecated: use policy.Cause.
	Cause = policy.Cause
	// Deprecated: use policy.Decision.
	Decision = policy.Decision
	// Deprecated: use policy.Limits.
	Limits = policy.Limits
	// Deprecated: use policy.LogText.
	LogText = policy.LogText
	// Deprecated: use policy.Memory.
	Memory = policy.Memory
	// Deprecated: use policy.PassDecision.
	PassDecision = policy.PassDecision
	// Deprecated: use policy.Plan.
	Plan = policy.Plan
	// Deprecated: use policy.ProberState.
	ProberState = policy.ProberState
	// Deprecated: use policy.Target.
	Target = policy.Target
	// Deprecated: use policy.Trigger.
	Trigger = policy.Trigger
	// Deprecated: use policy.WriterInput.
	WriterInput = policy.WriterInput
)

// The constants, by their policy names.
const (
	// Deprecated: use policy.CauseConfig.
	CauseConfig = policy.CauseConfig
	// Deprecated: use policy.CauseLeaderStart.
	CauseLeaderStart = policy.CauseLeaderStart
	// Deprecated: use policy.CauseNone.
	CauseNone = policy.CauseNone
	// Deprecated: use policy.CausePeriodic.
	CausePeriodic = policy.CausePeriodic
	// Deprecated: use policy.CauseSecret.
	CauseSecret = policy.CauseSecret
	// Deprecated: use policy.LogBackoff.
	LogBackoff = policy.LogBackoff
	// Deprecated: use policy.LogChanged.
	LogChanged = policy.LogChanged
	// Deprecated: use policy.LogClockBehind.
	LogClockBehind = policy.LogClockBehind
	// Deprecated: use policy.LogFightWait.
	LogFightWait = policy.LogFightWait
	// Deprecated: use policy.LogGap.
	LogGap = policy.LogGap
	// Deprecated: use policy.LogNoTime.
	LogNoTime = policy.LogNoTime
	// Deprecated: use policy.LogPutBack.
	LogPutBack = policy.LogPutBack
	// Deprecated: use policy.LogStandby.
	LogStandby = policy.LogStandby
	// Deprecated: use policy.LogUnchanged.
	LogUnchanged = policy.LogUnchanged
	// Deprecated: use policy.None.
	None = policy.None
	// Deprecated: use policy.ProbesPerBinding.
	ProbesPerBinding = policy.ProbesPerBinding
	// Deprecated: use policy.TriggerConfig.
	TriggerConfig = policy.TriggerConfig
	// Deprecated: use policy.TriggerLeaderStart.
	TriggerLeaderStart = policy.TriggerLeaderStart
	// Deprecated: use policy.TriggerSecret.
	TriggerSecret = policy.TriggerSecret
	// Deprecated: use policy.Wait.
	Wait = policy.Wait
	// Deprecated: use policy.Write.
	Write = policy.Write
)

// DefaultLimits returns the documented defaults.
//
// Deprecated: use policy.DefaultLimits.
func DefaultLimits() Limits { return policy.DefaultLimits() }

// The log texts, by the names they had before they were policy.LogText.
const (
	// Deprecated: use policy.LogBackoff.
	ReasonBackoff = policy.LogBackoff
	// Deprecated: use policy.LogChanged.
	ReasonChanged = policy.LogChanged
	// Deprecated: use policy.LogClockBehind.
	ReasonClockBehind = policy.LogClockBehind
	// Deprecated: use policy.LogFightWait.
	ReasonFightWait = policy.LogFightWait
	// Deprecated: use policy.LogGap.
	ReasonGap = policy.LogGap
	// Deprecated: use policy.LogNoTime.
	ReasonNoTime = policy.LogNoTime
	// Deprecated: use policy.LogPutBack.
	ReasonPutBack = policy.LogPutBack
	// Deprecated: use policy.LogStandby.
	ReasonStandby = policy.LogStandby
	// Deprecated: use policy.LogUnchanged.
	ReasonUnchanged = policy.LogUnchanged
)

// Reason is the writer's log text.
//
// Deprecated: use policy.LogText.
type Reason = policy.LogText
