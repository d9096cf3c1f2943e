package system

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/manifest"
	"github.com/condengine/condengine/scenario"
)

// Kind is one kind a system reads: its identity in the API, the names a
// kubectl user types for it, and what the system does with it.
type Kind struct {
	// Group, Version and Kind are the kind's group, version and kind,
	// as its CRD declares them; Group is "" for the core group.
	Group, Version, Kind string
	// Plural is the resource name, "bindings".
	Plural string
	// ShortNames are the CRD's short names, "akbinding".
	ShortNames []string
	// Namespaced says the kind lives in namespaces; false for a
	// cluster-scoped kind.
	Namespaced bool
	// Vocabulary is the kind's condition vocabulary; nil when the system
	// writes no conditions on it.
	Vocabulary *conditions.Vocabulary
	// Status says the system computes the kind's status (and a host
	// writes it): the kinds a conform answer lists.
	Status bool
	// Finalizer is the finalizer the system manages on the kind; "" for
	// none.
	Finalizer string
}

// APIVersion is the kind's apiVersion as a manifest spells it:
// "group/version", or the version alone for the core group.
func (k Kind) APIVersion() string {
	if k.Group == "" {
		return k.Version
	}
	return k.Group + "/" + k.Version
}

// Names are the names a kubectl user may type for the kind, in this
// order: the lower-case kind (the CRD's singular), the plural, then each
// short name followed by its plural (the short name and an s).
func (k Kind) Names() []string {
	out := []string{strings.ToLower(k.Kind), k.Plural}
	for _, s := range k.ShortNames {
		out = append(out, s, s+"s")
	}
	return out
}

// System is everything a tool of this module needs to know about one
// system of kinds: a struct of data and functions, declared as one value
// in the system's own package. Name, Kinds and Run are required; every
// other field is optional, and a tool that needs one the value leaves
// empty says so rather than guessing. Validate checks a value.
type System struct {
	// Name is the system's name as a scenario's system key spells it,
	// "binding": lower-case letters, digits and dashes.
	Name string
	// Doc says in one line what the system is, for a command's help.
	Doc string
	// Kinds are the kinds the system reads, in the order a snapshot of
	// it lists them; a command lists kinds and vocabularies in this
	// order.
	Kinds []Kind
	// FieldManager is the field manager a host's status writes use by
	// default.
	FieldManager string
	// Rules are the system's own decision rules, without
	// conditions.SharedRules, which every kind applies.
	Rules []conditions.Rule
	// CRDs holds the CustomResourceDefinitions of Kinds as YAML files;
	// nil when the system ships none. Validate holds the Kinds to them.
	CRDs fs.FS
	// Run evaluates one snapshot given as a scenario file (the objects
	// as the API server holds them, the system's own blocks and the
	// observed block) and returns an outcome per object it answers for.
	// With explain set, each outcome also carries the provenance of its
	// conditions (scenario.Outcome.Provenance and Computed). An error
	// means the file is unusable, not that an expectation failed.
	Run func(f *scenario.File, explain bool) ([]scenario.Outcome, error)
	// Generate draws snapshot seed as a scenario file without
	// expectations, already pushed toward the system's rare cases; the
	// same seed gives the same file. nil when the system has no
	// generator: differential conformance cannot draw snapshots of it.
	Generate func(seed int) (*scenario.File, error)
	// Unreachable maps the IDs of rules no snapshot can reach to why;
	// Rare maps those a run of the default length may miss to why. A
	// coverage report names them apart from the rules a run merely
	// missed.
	Unreachable, Rare map[string]string
	// UnreachableDecisions maps the decision outcomes (Decisions) no
	// snapshot can reach to why, as Unreachable does for rules: a reason
	// not to write that the system's host never has, a retry it never
	// holds back. A coverage report names them apart from the outcomes a
	// run merely missed.
	UnreachableDecisions map[string]string

	// The fields below are optional extensions for the tools that read
	// manifests and clusters; a tool checks whether one is set, and does
	// without it otherwise.

	// Check reads one manifest of the system's groups as Run would and
	// says what is wrong with it: a tool that splits a manifest stream
	// among systems (condengine eval) then reports a wrong kind or a
	// field of the wrong type at its place in the stream, line included.
	// nil: such errors come from Run, which names the document but not
	// the line.
	Check func(d *manifest.Document) error
	// References lists the objects of other kinds (outside Kinds) that
	// objects, manifests of the system as JSON, name and the evaluation
	// reads, such as a Subscription's target, which may be of any kind;
	// nil when the system reads only its own kinds. A tool that reads a
	// cluster gets each and hands those that exist to Run with the rest;
	// one that splits a manifest stream hands the system the manifests
	// no system claims.
	References func(objects []json.RawMessage) []Ref
	// Stream starts the system's own reading and evaluation of one large
	// input, a fast path for the tools that evaluate manifest streams
	// (condengine eval and explain); see Stream. nil: they read the
	// manifests as JSON and call Run.
	Stream func() Stream
	// Cluster says how the tools that read a live cluster evaluate the
	// system there, which holds none of the host's observations (probe
	// results); nil: Run once, every condition judged.
	Cluster *Cluster
}

// Ref names an object by its apiVersion, kind, namespace ("" for a
// cluster-scoped kind) and name.
type Ref struct {
	APIVersion, Kind, Namespace, Name string
}

// Kind returns the kind of s named kind (the Kind field, as a manifest
// and a scenario's expectation spell it).
func (s *System) Kind(kind string) (Kind, bool) {
	for _, k := range s.Kinds {
		if k.Kind == kind {
			return k, true
		}
	}
	return Kind{}, false
}

// StatusKinds lists the names of the kinds whose status s computes, in
// the order of Kinds.
func (s *System) StatusKinds() []string {
	var out []string
	for _, k := range s.Kinds {
		if k.Status {
			out = append(out, k.Kind)
		}
	}
	return out
}

// Vocabularies lists the condition vocabularies of s's kinds, in the
// order of Kinds; a kind without one is left out.
func (s *System) Vocabularies() []*conditions.Vocabulary {
	var out []*conditions.Vocabulary
	for _, k := range s.Kinds {
		if k.Vocabulary != nil {
			out = append(out, k.Vocabulary)
		}
	}
	return out
}

// Runners returns a scenario runner per system, keyed by its name, each
// running the system without explanation; a nil system is left out, and
// one without Run answers every file with an error. The map is new on
// each call, so a caller may replace or add runners.
func Runners(systems ...*System) scenario.Runners {
	out := make(scenario.Runners, len(systems))
	for _, s := range systems {
		if s == nil {
			continue
		}
		name, run := s.Name, s.Run
		out[name] = func(f *scenario.File) ([]scenario.Outcome, error) {
			if run == nil {
				return nil, fmt.Errorf("system %q has no Run", name)
			}
			return run(f, false)
		}
	}
	return out
}
