// Package dbsystem is the Database kind's engine: its rules and
// vocabulary, the evaluation of one Database, and the system.System value
// through which every tool of condengine (check, eval, explain, vocab,
// conform, writeplan, hostcheck) takes it.
package dbsystem

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/examples/database/api"
)

// The condition types of a Database, in the order they stand on it.
const (
	TypeProvisioned = "Provisioned"
	TypeReady       = "Ready"
)

// The pairs the rules write; a pair two rules share is one value.
var (
	created = conditions.Reason{Status: metav1.ConditionTrue, Reason: "Created",
		Meaning: "the database exists and its credentials Secret is there", Action: "none"}
	secretMissing = conditions.Reason{Status: metav1.ConditionFalse, Reason: "SecretMissing",
		Meaning: "the Secret spec.secretRef names is not in the Database's namespace", Action: "create the Secret the message names, or correct spec.secretRef"}
	deprovisioning = conditions.Reason{Status: metav1.ConditionFalse, Reason: "Deprovisioning",
		Meaning: "the Database is deleted and its database is being dropped", Action: "wait; the finalizer goes once the database is dropped",
		Message: "the database is being dropped"}
	deprovisioned = conditions.Reason{Status: metav1.ConditionFalse, Reason: "Deprovisioned",
		Meaning: "the database is dropped; the finalizer is released", Action: "none; the object goes away",
		Message: "the database is dropped", Terminal: true}
	connected = conditions.Reason{Status: metav1.ConditionTrue, Reason: "Connected",
		Meaning: "the last connection check of this generation succeeded", Action: "none"}
	connectionFailed = conditions.Reason{Status: metav1.ConditionFalse, Reason: "ConnectionFailed",
		Meaning: "the last connection check of this generation failed; the message says why, addresses and credentials hidden",
		Action:  "check the database server and the credentials"}
	probing = conditions.Reason{Status: metav1.ConditionUnknown, Reason: "Probing",
		Meaning: "no connection check has run since the spec last changed", Action: "wait for the next check",
		Message: "the connection has not been checked since the last change"}
	notProvisioned = conditions.Reason{Status: metav1.ConditionFalse, Reason: "NotProvisioned",
		Meaning: "Provisioned is not True, so there is nothing to connect to", Action: "see the Provisioned condition",
		Message: "the database is not provisioned"}
)

// The rules, by index into rules.
const (
	ruleDeprovisioned = iota
	ruleDeprovisioning
	ruleSecretMissing
	ruleCreated
	ruleNotProvisioned
	ruleProbing
	ruleConnectionFailed
	ruleConnected
)

func rule(id, typ, sentence string, writes ...conditions.Reason) conditions.Rule {
	return conditions.Rule{ID: "database/" + id, Kind: api.Kind, Types: []string{typ}, Sentence: sentence, Writes: writes}
}

var rules = []conditions.Rule{
	ruleDeprovisioned:    rule("provisioned/deprovisioned", TypeProvisioned, "a deleted Database whose database the host dropped is deprovisioned", deprovisioned),
	ruleDeprovisioning:   rule("provisioned/deprovisioning", TypeProvisioned, "a deleted Database is deprovisioning until its database is dropped", deprovisioning),
	ruleSecretMissing:    rule("provisioned/secret-missing", TypeProvisioned, "a Database whose credentials Secret is missing is not provisioned", secretMissing),
	ruleCreated:          rule("provisioned/created", TypeProvisioned, "a live Database with its Secret is provisioned", created),
	ruleNotProvisioned:   rule("ready/not-provisioned", TypeReady, "a Database not provisioned is not ready", notProvisioned),
	ruleProbing:          rule("ready/probing", TypeReady, "without a connection check of its generation, readiness is unknown", probing),
	ruleConnectionFailed: rule("ready/connection-failed", TypeReady, "a failed connection check makes the Database not ready", connectionFailed),
	ruleConnected:        rule("ready/connected", TypeReady, "a successful connection check makes the Database ready", connected),
}

// Rules returns the kind's rules, a new slice on each call.
func Rules() []conditions.Rule { return append([]conditions.Rule(nil), rules...) }

// Vocabulary is the kind's condition vocabulary, read from its rules.
var Vocabulary = conditions.MustVocabulary(api.APIVersion, api.Kind, []conditions.Type{
	{Name: TypeProvisioned, Meaning: "whether the database exists for this Database", Required: true},
	{Name: TypeReady, Meaning: "whether the host could connect to the database", Required: true},
}, conditions.FromRules(rules))
