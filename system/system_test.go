package system_test

import (
	"errors"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

var (
	dbRules = []conditions.Rule{
		{ID: "database/ready/provisioned", Kind: "Database", Types: []string{"Ready"}, Sentence: "provisioned",
			Writes: []conditions.Reason{{Status: metav1.ConditionTrue, Reason: "Provisioned"}}},
		{ID: "database/ready/secret-missing", Kind: "Database", Types: []string{"Ready"}, Sentence: "no secret",
			Writes: []conditions.Reason{{Status: metav1.ConditionFalse, Reason: "SecretMissing"}}},
	}
	dbVocab = conditions.MustVocabulary("db.example.dev/v1", "Database", []conditions.Type{{Name: "Ready", Reasons: []conditions.Reason{
		{Status: metav1.ConditionTrue, Reason: "Provisioned"}, {Status: metav1.ConditionFalse, Reason: "SecretMissing"},
	}}})
)

const dbCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: databases.db.example.dev}
spec:
  group: db.example.dev
  names: {kind: Database, plural: databases, singular: database, shortNames: [pgdb]}
  scope: Namespaced
  versions: [{name: v1, served: true, storage: true}]
`

// database is a valid system of two kinds, the first with conditions.
func database() *system.System {
	return &system.System{
		Name: "database",
		Kinds: []system.Kind{
			{Group: "db.example.dev", Version: "v1", Kind: "Database", Plural: "databases", ShortNames: []string{"pgdb"},
				Namespaced: true, Vocabulary: dbVocab, Status: true, Finalizer: "databases.db.example.dev/finalizer"},
			{Version: "v1", Kind: "Secret", Plural: "secrets", Namespaced: true},
		},
		Rules:       slices.Clone(dbRules),
		CRDs:        fstest.MapFS{"crds/db.yaml": {Data: []byte("---\n" + dbCRD)}, "notes.txt": {Data: []byte("no CRD")}},
		Unreachable: map[string]string{"database/ready/provisioned": "never in tests"},
		Run:         func(*scenario.File, bool) ([]scenario.Outcome, error) { return nil, nil },
	}
}

func TestValidate_AcceptsAValidSystem(t *testing.T) {
	require.NoError(t, system.Validate(database()))
	s0 := database()
	s0.Rules[0].Types = nil // a rule of every type writes a pair of one of them
	require.NoError(t, system.Validate(s0))
	s := database()
	s.CRDs = nil // the CRDs are optional; without them nothing is held to them
	s.Kinds[0].ShortNames = []string{"other"}
	require.NoError(t, system.Validate(s))
}

// Every rule of the contract is checked, each problem naming the system
// and what is wrong; all are reported at once.
func TestValidate_RefusesWhatBreaksTheContract(t *testing.T) {
	for name, tc := range map[string]struct {
		change func(s *system.System)
		want   string
	}{
		"name":            {func(s *system.System) { s.Name = "Data_base" }, `system "Data_base": the name must be 1 to 63 lower-case letters`},
		"no run":          {func(s *system.System) { s.Run = nil }, "Run is nil"},
		"no kinds":        {func(s *system.System) { s.Kinds = nil; s.Rules = nil; s.CRDs = nil; s.Unreachable = nil }, "the system has no kinds"},
		"kind incomplete": {func(s *system.System) { s.Kinds[1].Plural = "" }, "kinds[1] (Secret): kind, version and plural are required"},
		"kind twice":      {func(s *system.System) { s.Kinds[1] = s.Kinds[0] }, "kinds[1]: kind Database is listed twice"},
		"vocabulary kind": {func(s *system.System) { s.Kinds[0].Version = "v2"; s.CRDs = nil }, "kind Database.db.example.dev: its vocabulary is of db.example.dev/v1 Database"},
		"rule no id":      {func(s *system.System) { s.Rules = append(s.Rules, conditions.Rule{Kind: "Database"}) }, "rules[2] has no ID"},
		"rule twice":      {func(s *system.System) { s.Rules = append(s.Rules, dbRules[0]) }, "rule database/ready/provisioned is listed twice"},
		"rule shared":     {func(s *system.System) { s.Rules = append(s.Rules, conditions.SharedRules()[0]) }, "is a shared rule"},
		"rule kind":       {func(s *system.System) { s.Rules[0].Kind = "Secret" }, `rule database/ready/provisioned decides kind "Secret", which is not a kind of the system with a vocabulary`},
		"rule type":       {func(s *system.System) { s.Rules[0].Types = []string{"Healthy"} }, "rule database/ready/provisioned: type Healthy is not in the vocabulary of Database"},
		"rule reason":     {func(s *system.System) { s.Rules[1].Writes = []conditions.Reason{{Status: "False", Reason: "Gone"}} }, "rule database/ready/secret-missing: False Gone is not in the vocabulary of Database for Ready"},
		"unreachable":     {func(s *system.System) { s.Unreachable = map[string]string{"database/x": "why"} }, "Unreachable: database/x is not a rule of the system"},
		"rare reason":     {func(s *system.System) { s.Rare = map[string]string{"database/ready/provisioned": " "} }, "Rare: database/ready/provisioned has no reason"},
		"unreachable decision": {func(s *system.System) { s.UnreachableDecisions = map[string]string{"Secret/retryAt": "why"} },
			"UnreachableDecisions: Secret/retryAt is not a decision outcome of the system"},
		"unreachable decision reason": {func(s *system.System) { s.UnreachableDecisions = map[string]string{"Database/skip=Held": ""} },
			"UnreachableDecisions: Database/skip=Held has no reason"},
		"crd missing":     {func(s *system.System) { s.CRDs = fstest.MapFS{} }, "kind Database.db.example.dev has no CustomResourceDefinition in CRDs"},
		"crd plural":      {func(s *system.System) { s.Kinds[0].Plural = "dbs" }, `kind Database.db.example.dev (CRDs: crds/db.yaml): the plural is "dbs", the CRD's "databases"`},
		"crd short names": {func(s *system.System) { s.Kinds[0].ShortNames = nil }, `the short names are [], the CRD's ["pgdb"]`},
		"crd scope":       {func(s *system.System) { s.Kinds[0].Namespaced = false }, "Namespaced is false, the CRD's scope is Namespaced"},
		"crd version": {func(s *system.System) {
			s.CRDs = fstest.MapFS{"db.yaml": {Data: []byte(dbCRD[:len(dbCRD)-len("  versions: [{name: v1, served: true, storage: true}]\n")])}}
		}, "the CRD serves no version v1"},
		"crd not yaml":     {func(s *system.System) { s.CRDs = fstest.MapFS{"db.yaml": {Data: []byte("a: [")}} }, "CRDs: db.yaml"},
		"names in a group": {func(s *system.System) { s.Kinds[1].Group = "db.example.dev"; s.Kinds[1].ShortNames = []string{"pgdb"} }, `the name "pgdb" of kind Secret.db.example.dev also stands for kind Database`},
	} {
		t.Run(name, func(t *testing.T) {
			s := database()
			tc.change(s)
			err := system.Validate(s)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	s := database()
	s.Name, s.Run = "", nil
	err := system.Validate(s)
	require.Error(t, err)
	assert.Len(t, err.(interface{ Unwrap() []error }).Unwrap(), 2, "every problem is reported, not the first only")

	// A kind the system only reads needs no CRD; one it writes to does.
	s = database()
	s.Kinds[1].Status = true
	assert.ErrorContains(t, system.Validate(s), "kind Secret has no CustomResourceDefinition in CRDs")
}

// Systems given together share no name and no kind.
func TestValidate_SystemsTogether(t *testing.T) {
	a, b := database(), database()
	err := system.Validate(a, b)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `system "database": the name is given to two systems`)
	b.Name = "other"
	err = system.Validate(a, b)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `system "other": kind Database.db.example.dev is also a kind of system "database"`)
	assert.ErrorContains(t, system.Validate(a, nil), "systems[1] is nil")
}

func TestResolveKind_ReadsNamesAsKubectl(t *testing.T) {
	other := &system.System{Name: "other", Kinds: []system.Kind{
		{Group: "other.dev", Version: "v1", Kind: "Database", Plural: "databases", Vocabulary: dbVocab},
		{Group: "other.dev", Version: "v1", Kind: "Table", Plural: "tables"},
	}}
	for name, want := range map[string]string{
		"Database": "db.example.dev", "databases": "db.example.dev", "PGDB": "db.example.dev", "pgdbs": "db.example.dev",
		"databases.db.example.dev": "db.example.dev", "database.other.dev": "other.dev", "DATABASES.OTHER.DEV": "other.dev",
	} {
		k, err := system.ResolveKind(name, database(), other)
		if assert.NoError(t, err, name) {
			assert.Equal(t, "Database", k.Kind, name)
			assert.Equal(t, want, k.Group, name)
		}
	}
	for name, msg := range map[string]string{
		"databse":             `unknown kind "databse" (did you mean "database"?); kinds with conditions: Database, Database`,
		"pgdb.other.dev":      `unknown kind "pgdb.other.dev" (pgdb is in the API group db.example.dev)`,
		"secret":              `unknown kind "secret"; kinds with conditions: Database, Database`,
		"table":               `unknown kind "table"`,
		"":                    `unknown kind ""; kinds with conditions`,
		"databases.nowhere.x": `unknown kind "databases.nowhere.x" (databases is in the API group db.example.dev)`,
	} {
		_, err := system.ResolveKind(name, database(), other)
		if assert.Error(t, err, name) {
			assert.Contains(t, err.Error(), msg, name)
		}
	}
}

func TestFind(t *testing.T) {
	s, err := system.Find("database", database())
	require.NoError(t, err)
	assert.Equal(t, "database", s.Name)
	_, err = system.Find("databse", database())
	assert.EqualError(t, err, `no system "databse" (did you mean "database"?); known: database`)
	_, err = system.Find("x")
	assert.EqualError(t, err, `no system "x"; known: `)
}

// A runner runs the system without explanation, and is keyed by its
// name.
func TestRunners(t *testing.T) {
	s := database()
	var explained []bool
	s.Run = func(f *scenario.File, explain bool) ([]scenario.Outcome, error) {
		explained = append(explained, explain)
		return nil, errors.New("ran " + f.Name)
	}
	rs := system.Runners(s)
	require.Len(t, rs, 1)
	_, err := rs["database"](&scenario.File{Name: "x"})
	assert.EqualError(t, err, "ran x")
	assert.Equal(t, []bool{false}, explained)

	// A value that breaks the contract does not panic a tool.
	s.Run = nil
	_, err = system.Runners(s, nil)["database"](&scenario.File{Name: "x"})
	assert.EqualError(t, err, `system "database" has no Run`)
	_, err = system.ResolveKind("pgdb", nil, s)
	assert.NoError(t, err)
	_, err = system.Find("database", nil, s)
	assert.NoError(t, err)
}

func TestSystem_KindsAndVocabularies(t *testing.T) {
	s := database()
	k, ok := s.Kind("Secret")
	assert.True(t, ok)
	assert.Equal(t, "v1", k.APIVersion())
	_, ok = s.Kind("secret")
	assert.False(t, ok, "a kind is named as a manifest names it")
	assert.Equal(t, []string{"Database"}, s.StatusKinds())
	assert.Equal(t, []*conditions.Vocabulary{dbVocab}, s.Vocabularies())
	assert.Equal(t, "db.example.dev/v1", s.Kinds[0].APIVersion())
	assert.Equal(t, []string{"database", "databases", "pgdb", "pgdbs"}, s.Kinds[0].Names())
}

// The decision outcomes of a system follow from its kinds: only the
// kinds whose status it computes have them, the finalizer's only where
// the kind has one, and no kind whose status is written skips as never
// written.
func TestSystem_Decisions(t *testing.T) {
	s := database()
	assert.Equal(t, []string{
		"Database/write=true", "Database/write=false",
		"Database/skip=Stale", "Database/skip=Unchanged", "Database/skip=ConfigMapRoute", "Database/skip=NotLeader", "Database/skip=Held",
		"Database/finalizer=Add", "Database/finalizer=Remove", "Database/finalizer=Keep",
		"Database/retryAt",
	}, s.Decisions())
	s.Kinds[0].Finalizer = ""
	assert.NotContains(t, s.Decisions(), "Database/finalizer=Keep")
	s.Kinds[0].Status = false
	assert.Empty(t, s.Decisions())
	s = database()
	s.UnreachableDecisions = map[string]string{"Database/skip=Held": "the host holds no write back"}
	require.NoError(t, system.Validate(s))
}

// The printer columns are those the CRD declares for the kind's
// version; a kind without a CRD, a version without columns and a system
// without CRDs have none.
func TestPrinterColumns_FromTheCRDOfTheKindsVersion(t *testing.T) {
	s := database()
	s.CRDs = fstest.MapFS{"db.yaml": {Data: []byte(dbCRD[:len(dbCRD)-len("  versions: [{name: v1, served: true, storage: true}]\n")] +
		"  versions:\n" +
		"  - {name: v0, served: true, additionalPrinterColumns: [{name: Old, type: string, jsonPath: .spec.old}]}\n" +
		"  - name: v1\n    served: true\n    additionalPrinterColumns:\n" +
		"    - {name: Ready, type: string, jsonPath: '.status.conditions[?(@.type==\"Ready\")].status'}\n" +
		"    - {name: Size, type: integer, jsonPath: .spec.size, priority: 1}\n")}}
	cols, err := s.PrinterColumns(s.Kinds[0])
	require.NoError(t, err)
	assert.Equal(t, []system.PrinterColumn{
		{Name: "Ready", Type: "string", JSONPath: `.status.conditions[?(@.type=="Ready")].status`},
		{Name: "Size", Type: "integer", JSONPath: ".spec.size", Priority: 1},
	}, cols)

	for name, tc := range map[string]struct {
		s *system.System
		k system.Kind
	}{
		"no CRD for the kind": {s, s.Kinds[1]},
		"no columns":          {database(), database().Kinds[0]},
		"no CRDs":             {&system.System{}, s.Kinds[0]},
	} {
		cols, err := tc.s.PrinterColumns(tc.k)
		require.NoError(t, err, name)
		assert.Nil(t, cols, name)
	}
	s.CRDs = fstest.MapFS{"db.yaml": {Data: []byte("a: [")}}
	_, err = s.PrinterColumns(s.Kinds[0])
	assert.ErrorContains(t, err, "db.yaml")
}
