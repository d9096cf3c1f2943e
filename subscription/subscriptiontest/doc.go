// Package subscriptiontest helps tests of code that uses package
// subscription: builders for Subscriptions and Offerings in the states
// the gates care about, Apply and Settle to write results back the way a
// host does, rapid generators of whole worlds (World, Disturb, Shuffle),
// and a scenario runner (Run, FromScenario, Outcomes) for the kinds the
// subscription, costjob and provider packages own.
//
// Builders produce generation 1 objects with uid "u-<namespace>-<name>",
// bound to Offering shop/base unless told otherwise, so a test states only
// what it is about.
package subscriptiontest
