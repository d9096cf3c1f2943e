package dbsystem_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/examples/database/api"
	"github.com/condengine/condengine/examples/database/dbsystem"
	"github.com/condengine/condengine/redact"
	"github.com/condengine/condengine/scenario"
)

// The planted bugs of the naive implementation.
const (
	correct       = ""
	unredacted    = "the driver's error copied into the message as it is"
	releaseEarly  = "the finalizer released before the database is dropped"
	anyGeneration = "a connection check of an older generation counted"
)

// naive is the Database kind as a controller author writes it without
// the engine: the same decisions, meta.SetStatusCondition for each
// condition. bug plants one mistake. It is another implementation, the
// way conform sees one: scenario in, objects out.
func naive(bug string) conformance.Evaluator {
	return func(f *scenario.File) ([]conformance.Object, error) {
		var obs dbsystem.Observed
		if err := f.DecodeObserved(&obs); err != nil {
			return nil, err
		}
		var dbs []api.Database
		secrets := map[string]bool{}
		for _, raw := range f.Objects {
			var db api.Database
			if err := json.Unmarshal(raw, &db); err != nil {
				return nil, err
			}
			switch db.Kind {
			case api.Kind:
				dbs = append(dbs, db)
			case "Secret":
				secrets[db.Namespace+"/"+db.Name] = true
			}
		}
		var out []conformance.Object
		for _, db := range dbs {
			key := db.Namespace + "/" + db.Name
			deleting, held := db.DeletionTimestamp != nil, slices.Contains(db.Finalizers, api.Finalizer)
			dropped := slices.Contains(obs.Dropped, key)
			stale := slices.ContainsFunc(db.Status.Conditions, func(c metav1.Condition) bool {
				return (c.Type == dbsystem.TypeProvisioned || c.Type == dbsystem.TypeReady) && c.ObservedGeneration > db.Generation
			})
			write, release := false, false
			conds := slices.Clone(db.Status.Conditions)
			if !stale {
				now := metav1.NewTime(f.Now.Time.UTC().Truncate(time.Second))
				set := func(typ string, status metav1.ConditionStatus, reason, msg string) {
					write = meta.SetStatusCondition(&conds, metav1.Condition{Type: typ, Status: status, Reason: reason, Message: msg,
						ObservedGeneration: db.Generation, LastTransitionTime: now}) || write
				}
				switch {
				case deleting && dropped:
					set(dbsystem.TypeProvisioned, metav1.ConditionFalse, "Deprovisioned", "the database is dropped")
				case deleting:
					set(dbsystem.TypeProvisioned, metav1.ConditionFalse, "Deprovisioning", "the database is being dropped")
				case !secrets[db.Namespace+"/"+db.Spec.SecretRef]:
					set(dbsystem.TypeProvisioned, metav1.ConditionFalse, "SecretMissing", `Secret "`+db.Spec.SecretRef+`" not found`)
				default:
					set(dbsystem.TypeProvisioned, metav1.ConditionTrue, "Created", "")
				}
				i := slices.IndexFunc(obs.Probes, func(p dbsystem.Probe) bool {
					return p.Namespace == db.Namespace && p.Name == db.Name && (p.Generation == db.Generation || bug == anyGeneration)
				})
				switch {
				case !meta.IsStatusConditionTrue(conds, dbsystem.TypeProvisioned):
					set(dbsystem.TypeReady, metav1.ConditionFalse, "NotProvisioned", "the database is not provisioned")
				case i < 0:
					set(dbsystem.TypeReady, metav1.ConditionUnknown, "Probing", "the connection has not been checked since the last change")
				case obs.Probes[i].Error != "" && bug == unredacted:
					set(dbsystem.TypeReady, metav1.ConditionFalse, "ConnectionFailed", "connection check failed: "+obs.Probes[i].Error)
				case obs.Probes[i].Error != "":
					set(dbsystem.TypeReady, metav1.ConditionFalse, "ConnectionFailed", redact.Message("connection check failed: "+obs.Probes[i].Error))
				default:
					set(dbsystem.TypeReady, metav1.ConditionTrue, "Connected", "")
				}
				release = deleting && held && (dropped || bug == releaseEarly)
			}
			if !write {
				conds = db.Status.Conditions
			}
			if conds == nil {
				conds = []metav1.Condition{}
			}
			out = append(out, conformance.Object{Kind: api.Kind, Namespace: db.Namespace, Name: db.Name, Conditions: conds,
				Write: &write, RemoveFinalizer: &release})
		}
		return out, nil
	}
}

// conformOptions is what the naive implementation declares: its answers
// carry write and removeFinalizer, and its conditions stand in the order
// meta.SetStatusCondition appends them, which the engine does not fix
// (a server-side apply cannot choose it either).
func conformOptions() conformance.Options {
	return conformance.Options{Runs: 200, AnyOrder: true, Keys: []string{conformance.KeyWrite, conformance.KeyRemoveFinalizer}}
}

// The naive implementation agrees with the engine on every drawn
// snapshot; each planted bug in it is caught, shrunk to a scenario that
// shows it.
func TestConform_NaiveImplementation(t *testing.T) {
	cx, err := conformance.Differential(dbsystem.System(), naive(correct), conformOptions())
	if err != nil {
		t.Fatal(err)
	}
	if cx != nil {
		t.Fatalf("the correct naive implementation disagrees:\n%s", cx.Report())
	}
	for _, bug := range []string{unredacted, releaseEarly, anyGeneration} {
		t.Run(bug, func(t *testing.T) {
			cx, err := conformance.Differential(dbsystem.System(), naive(bug), conformOptions())
			if err != nil {
				t.Fatal(err)
			}
			if cx == nil {
				t.Fatalf("not caught in %d snapshots", conformOptions().Runs)
			}
			if !strings.Contains(cx.Report(), "Database") {
				t.Errorf("the report names no Database:\n%s", cx.Report())
			}
			t.Logf("caught at run %d:\n%s", cx.Run, cx.Report())
		})
	}
}
