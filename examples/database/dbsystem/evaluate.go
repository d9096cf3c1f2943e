package dbsystem

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/examples/database/api"
	"github.com/condengine/condengine/redact"
)

// Observed is what the host observed besides the objects: a scenario's
// observed block, and what a host hands Evaluate.
type Observed struct {
	// Probes are the last connection check of each Database.
	Probes []Probe `json:"probes,omitempty"`
	// Dropped lists the deleted Databases whose database the host has
	// dropped, as namespace/name.
	Dropped []string `json:"dropped,omitempty"`
}

// Probe is one connection check of one Database.
type Probe struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	// Generation is the metadata.generation the check ran for.
	Generation int64 `json:"generation"`
	// Error is why the connection failed, as the driver said it (it may
	// hold addresses and credentials); "" when it succeeded.
	Error string `json:"error,omitempty"`
}

// Input is one Database and what its evaluation reads.
type Input struct {
	Database *api.Database
	// SecretFound says the Secret spec.secretRef names exists.
	SecretFound bool
	// Observed is the host's observations; only the Database's own are
	// read.
	Observed Observed
}

// Evaluate decides one Database's conditions and finalizer at now; with a
// recorder, rec holds the rule and evidence of each condition.
func Evaluate(in Input, now time.Time, rec *conditions.Recorder) conditions.Outcome {
	db := in.Database
	self := conditions.ObjectRef{Kind: api.Kind, Namespace: db.Namespace, Name: db.Name, UID: db.UID, Generation: db.Generation}
	pv := provisioned(in, self, rec)
	rec.Decided(TypeProvisioned, "", pv)
	rv, from := ready(in, pv, self, rec)
	rec.Decided(TypeReady, from, rv)
	m := Vocabulary.MergeVerdicts(db, db.Status.Conditions, []string{TypeProvisioned, TypeReady}, []conditions.Verdict{pv, rv}, now)
	o := conditions.Outcome{Kind: api.Kind, Namespace: db.Namespace, Name: db.Name, UID: db.UID, Generation: db.Generation,
		Conditions: m.Conditions}
	o.Decide(m, false)
	o.Owned = Vocabulary.Owned(o.Conditions)
	deleting, held := db.DeletionTimestamp != nil, slices.Contains(db.Finalizers, api.Finalizer)
	switch {
	case m.Stale:
	case !deleting && !held:
		o.Finalizer = conditions.FinalizerAdd
	case deleting && held && pv.Rule == &rules[ruleDeprovisioned]:
		o.Finalizer = conditions.FinalizerRemove
	}
	return o
}

func provisioned(in Input, self conditions.ObjectRef, rec *conditions.Recorder) conditions.Verdict {
	db := in.Database
	if db.DeletionTimestamp != nil {
		dropped := slices.Contains(in.Observed.Dropped, db.Namespace+"/"+db.Name)
		if rec.On() {
			rec.Read(TypeProvisioned, self, conditions.FTime("metadata.deletionTimestamp", db.DeletionTimestamp.Time))
			rec.Read(TypeProvisioned, conditions.ObjectRef{}, conditions.F("observed.dropped", strconv.FormatBool(dropped)))
		}
		if dropped {
			return rules[ruleDeprovisioned].Verdict(0, "", db.Generation)
		}
		return rules[ruleDeprovisioning].Verdict(0, "", db.Generation)
	}
	if rec.On() {
		rec.Read(TypeProvisioned, self, conditions.F("spec.secretRef", db.Spec.SecretRef), conditions.F("Secret found", strconv.FormatBool(in.SecretFound)))
	}
	if !in.SecretFound {
		msg := fmt.Sprintf("Secret %q not found", redact.Name(db.Spec.SecretRef))
		return rules[ruleSecretMissing].Verdict(0, redact.Fit(msg, redact.DefaultMaxBytes), db.Generation)
	}
	return rules[ruleCreated].Verdict(0, "", db.Generation)
}

func ready(in Input, pv conditions.Verdict, self conditions.ObjectRef, rec *conditions.Recorder) (conditions.Verdict, string) {
	db := in.Database
	if pv.Status != metav1.ConditionTrue {
		if rec.On() {
			rec.Read(TypeReady, self, conditions.F(TypeProvisioned, string(pv.Status)+" "+pv.Reason))
		}
		return rules[ruleNotProvisioned].Verdict(0, "", db.Generation), TypeProvisioned
	}
	i := slices.IndexFunc(in.Observed.Probes, func(p Probe) bool { return p.Namespace == db.Namespace && p.Name == db.Name })
	if i < 0 || in.Observed.Probes[i].Generation != db.Generation {
		if rec.On() {
			rec.Read(TypeReady, conditions.ObjectRef{}, conditions.F("observed.probes", "none of generation "+strconv.FormatInt(db.Generation, 10)))
		}
		return rules[ruleProbing].Verdict(0, "", db.Generation), ""
	}
	p := in.Observed.Probes[i]
	if rec.On() {
		rec.Read(TypeReady, conditions.ObjectRef{}, conditions.F("observed.probes.error", p.Error))
	}
	if p.Error != "" {
		return rules[ruleConnectionFailed].Verdict(0, redact.Message("connection check failed: "+p.Error), db.Generation), ""
	}
	return rules[ruleConnected].Verdict(0, "", db.Generation), ""
}
