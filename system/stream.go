package system

import (
	"io"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/condengine/condengine/manifest"
	"github.com/condengine/condengine/scenario"
)

// Stream is a system's own reading and evaluation of one input, for a
// tool that evaluates large ones (condengine eval and explain read
// streams of 100,000 objects): it decodes the manifests of the system's
// kinds into its own types as they are read, holds them as compactly as
// it likes, evaluates them at once and hands each object on as it is
// decided, so that neither the input's text nor every outcome is held
// at once. A System offers one through its Stream field; a tool finding
// none reads the manifests as JSON and calls Run, which gives the same
// conditions.
//
// A tool uses a Stream for one input, in this order: while it reads,
// Slot, then Keep or Drop, for each document it decodes straight, and
// Add for each manifest of the system's groups it reads in full (or
// Scenario, once, for a scenario file instead); then Evaluate, once;
// then, when Evaluate kept the objects, any of Objects, Table and
// Explain.
type Stream interface {
	// Slot returns a value of the Go type a manifest of apiVersion and
	// kind decodes into, for a reader that decodes JSON documents
	// straight into types (manifest.Reader.NextTyped); nil has the
	// manifest read in full and passed to Add.
	Slot(apiVersion, kind string) any
	// Keep takes the objects decoded into the values Slot handed out
	// since the last Keep or Drop: their document was read without a
	// problem. Drop forgets them: the document is read in full instead.
	Keep()
	Drop()
	// Add reads one manifest of the system's groups, read in full; the
	// error names the document, as manifest.Document.Fail does.
	Add(d *manifest.Document) error
	// Scenario reads a scenario file of the system, in place of
	// manifests: its objects and its own blocks.
	Scenario(f *scenario.File) error
	// Evaluate evaluates what was read, at now for manifests (a scenario
	// file has its own instant). With each set, it hands each object of
	// a kind whose status the system computes to each as soon as it is
	// decided, in the order of Objects, and keeps nothing; with each
	// nil, it keeps them for Objects, Table and Explain. notes are
	// remarks for the person running the tool (an object left out, and
	// why). An error from each ends the evaluation and is returned.
	Evaluate(now time.Time, each func(*Object) error) (notes []string, err error)
	// Objects hands each object Evaluate kept to each, in the order a
	// List of them prints: by kind, then namespace, name and UID.
	Objects(each func(*Object) error) error
	// Table writes what `kubectl get KIND -A` shows of the objects kept,
	// for each kind that has some: the command line, then the table, the
	// kinds apart by a blank line; nothing when none was kept.
	Table(w io.Writer) error
	// Explain evaluates the input once more with provenance and returns
	// an outcome per object, as Run returns with explain set: Computed
	// and Provenance set for each object the system answers for.
	Explain() ([]scenario.Outcome, error)
}

// Object is one object of a Stream's evaluation as a tool prints it:
// its identity, and the conditions it carries afterwards, which are its
// whole status.
type Object struct {
	APIVersion, Kind, Namespace, Name string
	UID                               types.UID
	Generation                        int64
	Conditions                        []metav1.Condition
}
