package bindingtest

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/kubectl"
	"github.com/condengine/condengine/manifest"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

// stream is the binding system's own reading and evaluation of one
// input (system.Stream), so that `condengine eval` holds a stream of
// 100,000 Bindings in about its own size: the Agent Kourier objects are
// decoded into their types as they are read (straight from JSON when
// the reader can, manifest.Reader.NextTyped), the Bindings kept in
// compact chunks with their strings and condition lists shared, and
// the outcomes taken one at a time (binding.EvaluateEach).
//
// A manifest stream is evaluated as the broker DefaultBroker describes,
// with the identity the API server would have given the objects
// (binding.Objects.DefaultIdentity); a scenario file brings its broker,
// memory and probes. Each Binding shows the conditions it carries
// afterwards: the written ones where a write is due, the ones it had
// elsewhere (another broker's, a standby, the ConfigMap route).
type stream struct {
	objs   binding.Objects // Backends and Connections; Bindings wait in chunks
	chunks bindingChunks
	in     *interner
	// one holds the objects of the document being read, which go to the
	// stream's once it is read without a problem.
	one binding.Objects
	// file is the scenario file read instead of manifests; nil for a
	// manifest stream.
	file *scenario.File
	snap *binding.Snapshot

	// After an evaluation that keeps its objects: the instant, the
	// Bindings with the conditions they carry afterwards, and the
	// conditions they were read with, for Explain.
	now      time.Time
	bindings []akv1.Binding
	read     [][]metav1.Condition
}

func newStream() system.Stream {
	return &stream{in: newInterner()}
}

// Slot hands out where an Agent Kourier object of the served version
// is decoded; other objects take the full reading.
func (s *stream) Slot(apiVersion, kind string) any {
	if apiVersion != akv1.APIVersion {
		return nil
	}
	o := &s.one
	switch kind {
	case akv1.KindBinding:
		o.Bindings = append(o.Bindings, akv1.Binding{})
		return &o.Bindings[len(o.Bindings)-1]
	case akv1.KindAgentBackend:
		o.Backends = append(o.Backends, akv1.AgentBackend{})
		return &o.Backends[len(o.Backends)-1]
	case akv1.KindChatConnection:
		o.Connections = append(o.Connections, akv1.ChatConnection{})
		return &o.Connections[len(o.Connections)-1]
	}
	return nil
}

// Keep moves the objects of the document just read to the stream's.
func (s *stream) Keep() {
	o := &s.one
	for i := range o.Bindings {
		s.in.binding(&o.Bindings[i])
		s.chunks.add(&o.Bindings[i])
	}
	s.objs.Backends = append(s.objs.Backends, o.Backends...)
	s.objs.Connections = append(s.objs.Connections, o.Connections...)
	s.Drop()
}

// Drop empties the document's objects, keeping room for the next
// unless it is as large as a whole List.
func (s *stream) Drop() {
	o := &s.one
	if cap(o.Bindings) > chunkLen {
		o.Bindings = nil
	}
	o.Bindings, o.Backends, o.Connections = o.Bindings[:0], o.Backends[:0], o.Connections[:0]
}

// Add decodes one manifest as binding.DecodeDocument does for a host.
func (s *stream) Add(d *manifest.Document) error {
	s.Drop()
	if err := binding.DecodeDocument(&s.one, d); err != nil {
		return err
	}
	s.Keep()
	return nil
}

// Scenario reads the snapshot the file describes (Snapshot).
func (s *stream) Scenario(f *scenario.File) error {
	snap, err := Snapshot(f)
	if err != nil {
		return fmt.Errorf("%s: %w", f.Path, err)
	}
	s.file, s.snap = f, &snap
	return nil
}

// Evaluate evaluates the snapshot read. The Bindings of a scenario file
// keep the strings the file gave them; those of a manifest stream share
// their computed condition lists where alike.
func (s *stream) Evaluate(now time.Time, each func(*system.Object) error) ([]string, error) {
	snap, in := s.snapshot(now)
	if snap == nil {
		return nil, nil
	}
	s.now = snap.Now
	if each != nil {
		return writeBindings(*snap, each)
	}
	s.read = make([][]metav1.Condition, len(snap.Bindings))
	for i := range snap.Bindings {
		s.read[i] = snap.Bindings[i].Status.Conditions
	}
	s.snap = snap
	bindings, notes, err := evaluateBindings(*snap, in)
	if err != nil && s.file != nil {
		err = fmt.Errorf("%s: %w", s.file.Path, err)
	}
	s.bindings = bindings
	return notes, err
}

// snapshot is the snapshot to evaluate at now and the interner of its
// computed conditions; nil when nothing of the system was read.
func (s *stream) snapshot(now time.Time) (*binding.Snapshot, *interner) {
	if s.snap != nil {
		return s.snap, nil
	}
	objs := &s.objs
	objs.Bindings = s.chunks.slice()
	if len(objs.Bindings)+len(objs.Backends)+len(objs.Connections) == 0 {
		return nil, nil
	}
	objs.DefaultIdentity()
	return &binding.Snapshot{
		Now:         now,
		Broker:      DefaultBroker(now),
		Bindings:    objs.Bindings,
		Backends:    objs.Backends,
		Connections: objs.Connections,
	}, s.in
}

// Objects hands on the Bindings kept, in the order of the outputs.
func (s *stream) Objects(each func(*system.Object) error) error {
	var o system.Object
	for _, i := range bindingOrder(s.bindings) {
		b := &s.bindings[i]
		if err := each(object(&o, b, b.Status.Conditions)); err != nil {
			return err
		}
	}
	return nil
}

// Table prints `kubectl get akbinding -A` of the Bindings kept.
func (s *stream) Table(w io.Writer) error {
	if len(s.bindings) == 0 {
		return nil
	}
	if _, err := io.WriteString(w, "$ kubectl get akbinding -A\n"); err != nil {
		return err
	}
	return kubectl.Write(w, s.bindings, s.now)
}

// Explain evaluates the snapshot once more, with the conditions its
// Bindings were read with, recording why (binding.Explain).
func (s *stream) Explain() ([]scenario.Outcome, error) {
	if s.snap == nil {
		return nil, nil
	}
	snap := *s.snap
	snap.Bindings = slices.Clone(snap.Bindings)
	for i := range snap.Bindings {
		snap.Bindings[i].Status.Conditions = s.read[i]
	}
	r, err := binding.Explain(snap)
	if err != nil {
		return nil, err
	}
	out := make([]scenario.Outcome, 0, len(r.Bindings))
	for _, o := range r.Bindings {
		computed := o.Conditions
		if computed == nil { // answered: not nil, even when empty
			computed = []metav1.Condition{}
		}
		out = append(out, scenario.Outcome{Kind: akv1.KindBinding, Namespace: o.Namespace, Name: o.Name,
			Computed: computed, Provenance: o.Provenance})
	}
	return out, nil
}

// object fills o with Binding b carrying conds.
func object(o *system.Object, b *akv1.Binding, conds []metav1.Condition) *system.Object {
	*o = system.Object{APIVersion: akv1.APIVersion, Kind: akv1.KindBinding, Namespace: b.Namespace, Name: b.Name,
		UID: b.UID, Generation: b.Generation, Conditions: conds}
	return o
}

// evaluateBindings evaluates a Binding snapshot and returns its Bindings
// carrying the conditions they have afterwards: the written ones where a
// write is due, the current ones elsewhere (another broker's Bindings, a
// standby, the ConfigMap route). The snapshot's slice is written in
// place, as binding.ApplyInPlace would (binding.Apply's copy raised the
// peak of a 100k-Binding eval by up to 15%), from outcomes taken one at
// a time (binding.EvaluateEach): holding them all, with their condition
// lists, doubled what the evaluation adds to the snapshot. in, when set,
// shares the computed condition lists that are alike.
func evaluateBindings(snap binding.Snapshot, in *interner) ([]akv1.Binding, []string, error) {
	// The written lists wait here until the evaluation ends: EvaluateEach
	// must not see its snapshot change.
	written := make([][]metav1.Condition, len(snap.Bindings))
	notes, err := eachOutcome(snap, func(i int, conds []metav1.Condition) {
		if in != nil {
			conds = in.conditions(conds)
		}
		written[i] = conds
	})
	if err != nil {
		return nil, nil, err
	}
	for i, conds := range written {
		if conds != nil { // a written list always holds Accepted and Ready
			snap.Bindings[i].Status = akv1.BindingStatus{Conditions: conds}
		}
	}
	return snap.Bindings, notes, nil
}

// eachOutcome evaluates snap with binding.EvaluateEach, hands written
// the position and the conditions of each Binding whose status is to be
// written, in the order of the outputs, and returns the notes for
// stderr: the objects left out, then the problems with Bindings as
// input.
func eachOutcome(snap binding.Snapshot, written func(i int, conds []metav1.Condition)) ([]string, error) {
	var outcomeNotes []string
	res, err := binding.EvaluateEach(snap, func(i int, o binding.Outcome) {
		for _, p := range o.Errors {
			outcomeNotes = append(outcomeNotes, fmt.Sprintf("Binding %s: %s", manifest.JoinName(o.Namespace, o.Name), p))
		}
		if o.Write && o.Status.Conditions != nil {
			written(i, o.Status.Conditions)
		}
	})
	if err != nil {
		return nil, err
	}
	var notes []string
	for _, e := range res.Errors {
		notes = append(notes, fmt.Sprintf("%s %s left out: %s", e.Kind, manifest.JoinName(e.Namespace, e.Name), e.Problem))
	}
	return append(notes, outcomeNotes...), nil
}

// writeBindings evaluates snap and hands each Binding to each as soon as
// its outcome is decided: the outcomes come in the outputs' order, and
// the Bindings the engine hands on no outcome for (another broker's,
// those left out) are handed on between them, as read. Nothing is kept
// per Binding but its place in that order, and the snapshot is not
// changed.
func writeBindings(snap binding.Snapshot, each func(*system.Object) error) ([]string, error) {
	bs := snap.Bindings
	ord := bindingOrder(bs)
	rank := make([]int32, len(bs))
	for r, i := range ord {
		rank[i] = int32(r)
	}
	var o system.Object
	next := 0 // ord[:next] is written
	var werr error
	upTo := func(r int) {
		for ; next < r && werr == nil; next++ {
			b := &bs[ord[next]]
			werr = each(object(&o, b, b.Status.Conditions))
		}
	}
	notes, err := eachOutcome(snap, func(i int, conds []metav1.Condition) {
		r := int(rank[i])
		if r < next && werr == nil {
			// EvaluateEach's order is the outputs' (namespace, name,
			// UID, each unique among outcomes); this would be a
			// Binding written twice.
			werr = fmt.Errorf("the outcome of Binding %s came out of the output's order", manifest.JoinName(bs[i].Namespace, bs[i].Name))
		}
		upTo(r)
		if werr == nil {
			werr = each(object(&o, &bs[i], conds))
			next = r + 1
		}
	})
	if err != nil {
		return nil, err
	}
	upTo(len(bs))
	return notes, werr
}

// bindingOrder is the positions of bs in the order the outputs list
// them: by namespace, name and UID, the order in which
// binding.EvaluateEach hands on its outcomes.
func bindingOrder(bs []akv1.Binding) []int32 {
	ord := make([]int32, len(bs))
	for i := range ord {
		ord[i] = int32(i)
	}
	slices.SortFunc(ord, func(i, j int32) int {
		a, b := &bs[i], &bs[j]
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name), cmp.Compare(a.UID, b.UID))
	})
	return ord
}
