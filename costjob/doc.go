// Package costjob models the FinOps operator's CostJob: its types, the
// mapping from spec.interval to the CronJob schedule, the run's timeouts
// and sharding with their defaults, and the fold of a finished run into
// status.
//
// A CostJob carries no conditions, and the reconciler never writes its
// status: a ResourceCostCollection run records itself (Record), and a
// SubscriptionChargeCollection job keeps an empty status, its outcome
// showing on the Subscriptions it prices instead.
//
// # Decisions
//
//  1. Cron compares intervals as durations, so any spelling of a known
//     duration ("60m", "3600s", "1h0m0s") gets that schedule. Text that
//     does not parse, zero, negative and unknown durations all run daily,
//     silently, as the operator does for intervals it does not know.
//  2. Record refuses Error and Pending outcomes with an error rather than
//     writing a value the operator never writes.
//  3. The error text of a failed record goes through redact.Message: a run
//     failure often quotes a database connection string or host.
//  4. Record on a SubscriptionChargeCollection job returns the status as
//     it is, with no write due, whatever the record says.
//  5. Timeouts keeps a field's default when its value does not parse or
//     is not positive, as the run does with a bad environment value.
package costjob
