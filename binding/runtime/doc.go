// Package runtime holds the timing policies that sit beside
// binding.Evaluate in an Agent Kourier broker: when the status writer
// writes, waits or does nothing, how it treats someone else's edits of a
// status, when the prober starts a pass and in which order it probes.
// Everything here is a pure function of values the host keeps; nothing
// reads a clock, sleeps or starts a goroutine.
package runtime
