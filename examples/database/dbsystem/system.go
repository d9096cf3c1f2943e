package dbsystem

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/examples/database/api"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

// FieldManager is the field manager of the host's writes.
const FieldManager = "database-operator"

// System returns the Database system as a value, new on each call.
func System() *system.System {
	crds, err := fs.Sub(api.CRDs, "crds")
	if err != nil {
		panic(err) // the embedded directory is part of the package
	}
	return &system.System{
		Name: "database",
		Doc:  "Databases of db.example.dev: Provisioned and Ready",
		Kinds: []system.Kind{
			{Group: api.Group, Version: api.Version, Kind: api.Kind, Plural: "databases", ShortNames: []string{"exdb"}, Namespaced: true,
				Vocabulary: Vocabulary, Status: true, Finalizer: api.Finalizer},
			{Version: "v1", Kind: "Secret", Plural: "secrets", Namespaced: true},
		},
		FieldManager: FieldManager,
		Rules:        Rules(),
		CRDs:         crds,
		Run:          Run,
		Generate:     Generate,
		UnreachableDecisions: map[string]string{
			"Database/skip=ConfigMapRoute": "the host writes every status to the Database itself",
			"Database/skip=NotLeader":      "Run answers for the leader; a standby's host does not evaluate",
			"Database/skip=Held":           "the host holds no write back",
			"Database/retryAt":             "every change the evaluation waits for arrives as an event",
		},
	}
}

// Run evaluates a scenario file of the system: an outcome per Database,
// in the order of the objects.
func Run(f *scenario.File, explain bool) ([]scenario.Outcome, error) {
	var obs Observed
	if err := f.DecodeObserved(&obs); err != nil {
		return nil, err
	}
	var dbs []*api.Database
	secrets := map[string]bool{}
	for i, raw := range f.Objects {
		var head metav1.PartialObjectMetadata
		if err := json.Unmarshal(raw, &head); err != nil {
			return nil, fmt.Errorf("objects[%d]: %w", i, err)
		}
		switch {
		case head.APIVersion == api.APIVersion && head.Kind == api.Kind:
			db := &api.Database{}
			if err := json.Unmarshal(raw, db); err != nil {
				return nil, fmt.Errorf("objects[%d]: %w", i, err)
			}
			dbs = append(dbs, db)
		case head.APIVersion == "v1" && head.Kind == "Secret":
			secrets[head.Namespace+"/"+head.Name] = true
		}
	}
	out := make([]scenario.Outcome, 0, len(dbs))
	for _, db := range dbs {
		var rec *conditions.Recorder
		if explain {
			rec = &conditions.Recorder{}
		}
		o := Evaluate(Input{Database: db, SecretFound: secrets[db.Namespace+"/"+db.Spec.SecretRef], Observed: obs}, f.Now.Time, rec)
		so := scenario.Outcome{Kind: o.Kind, Namespace: o.Namespace, Name: o.Name, Conditions: db.Status.Conditions,
			Write: o.Write, Skip: o.Skip, Finalizer: o.Finalizer}
		if o.Write {
			so.Conditions = o.Conditions
		}
		if explain {
			self := conditions.ObjectRef{Kind: api.Kind, Namespace: db.Namespace, Name: db.Name, UID: db.UID, Generation: db.Generation}
			so.Computed = append([]metav1.Condition{}, o.Conditions...)
			so.Provenance = Vocabulary.Attach(o.Conditions, o.Skip == conditions.SkipStale, self, rec.Provenance())
		}
		out = append(out, so)
	}
	return out, nil
}

// probeErrors are what a driver says when a connection fails, addresses
// and credentials included, as a real one does.
var probeErrors = []string{
	"dial tcp 10.0.3.7:5432: connect: connection refused",
	`pq: password authentication failed for user "app" (password=hunter2)`,
	"dial tcp: lookup pg.db.svc.cluster.local on 10.96.0.10:53: no such host",
}

// Generate draws a snapshot of up to four Databases in two namespaces:
// Secrets that may be missing, probes of this or an older generation,
// deleted Databases whose database may be dropped, statuses an earlier
// pass wrote (some for a newer generation: a stale snapshot) and another
// writer's condition.
func Generate(seed int) (*scenario.File, error) {
	r := rand.New(rand.NewPCG(uint64(seed), 7))
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC).Add(time.Duration(r.IntN(3600)) * time.Second)
	f := &scenario.File{Name: fmt.Sprintf("databases, seed %d", seed), System: "database", Now: metav1.NewTime(now)}
	var obs Observed
	add := func(obj any) error {
		raw, err := json.Marshal(obj)
		f.Objects = append(f.Objects, raw)
		return err
	}
	for i := range 1 + r.IntN(4) {
		gen := int64(1 + r.IntN(3))
		db := &api.Database{TypeMeta: metav1.TypeMeta{APIVersion: api.APIVersion, Kind: api.Kind},
			ObjectMeta: metav1.ObjectMeta{Namespace: []string{"a", "b"}[r.IntN(2)], Name: fmt.Sprintf("db%d", i), Generation: gen,
				CreationTimestamp: metav1.NewTime(now.Add(-2 * time.Hour))},
			Spec: api.DatabaseSpec{Engine: "postgres", SecretRef: fmt.Sprintf("creds-%d", r.IntN(2))}}
		if r.IntN(2) == 0 {
			db.Finalizers = []string{api.Finalizer}
			if r.IntN(3) == 0 {
				db.DeletionTimestamp = &metav1.Time{Time: now.Add(-time.Minute)}
				if r.IntN(2) == 0 {
					obs.Dropped = append(obs.Dropped, db.Namespace+"/"+db.Name)
				}
			}
		}
		if r.IntN(4) > 0 {
			p := Probe{Namespace: db.Namespace, Name: db.Name, Generation: gen - int64(r.IntN(2))}
			if r.IntN(2) == 0 {
				p.Error = probeErrors[r.IntN(len(probeErrors))]
			}
			obs.Probes = append(obs.Probes, p)
		}
		if r.IntN(2) == 0 {
			at := metav1.NewTime(now.Add(-time.Hour))
			og := gen - 1 + int64(r.IntN(2))
			if r.IntN(8) == 0 {
				og = gen + 1
			}
			was := []conditions.Reason{connected, probing}[r.IntN(2)]
			db.Status.Conditions = []metav1.Condition{
				{Type: TypeProvisioned, Status: metav1.ConditionTrue, Reason: created.Reason, ObservedGeneration: og, LastTransitionTime: at},
				{Type: TypeReady, Status: was.Status, Reason: was.Reason, Message: was.Message, ObservedGeneration: og, LastTransitionTime: at},
			}
		}
		if r.IntN(4) == 0 {
			db.Status.Conditions = append(db.Status.Conditions, metav1.Condition{Type: "BackedUp", Status: metav1.ConditionTrue,
				Reason: "Nightly", LastTransitionTime: metav1.NewTime(now.Add(-3 * time.Hour))})
		}
		if err := add(db); err != nil {
			return nil, err
		}
	}
	for i := range 4 { // creds-0 and creds-1 of each namespace, each there three times in four
		if r.IntN(4) == 0 {
			continue
		}
		s := metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"},
			ObjectMeta: metav1.ObjectMeta{Namespace: []string{"a", "b"}[i/2], Name: fmt.Sprintf("creds-%d", i%2)}}
		if err := add(s); err != nil {
			return nil, err
		}
	}
	if obs.Probes != nil || obs.Dropped != nil {
		raw, err := json.Marshal(obs)
		if err != nil {
			return nil, err
		}
		f.Observed = raw
	}
	return f, nil
}
