package hostcheck

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/scenario"
)

// run evaluates objs with observed at now and returns the outcomes of
// the status kind by object.
func (w *adaptedWorld) run(objs []*unstructured.Unstructured, observed json.RawMessage, now time.Time) (map[ObjectKey]scenario.Outcome, error) {
	f := &scenario.File{Name: "hostcheck world", System: w.a.sys.Name, Now: metav1.NewTime(now), Observed: observed}
	for _, u := range objs {
		x := u.DeepCopy()
		x.SetManagedFields(nil)
		raw, err := x.MarshalJSON()
		if err != nil {
			return nil, err
		}
		f.Objects = append(f.Objects, raw)
	}
	outs, err := w.a.sys.Run(f, false)
	if err != nil {
		return nil, err
	}
	out := map[ObjectKey]scenario.Outcome{}
	for _, o := range outs {
		if o.Kind == w.a.status.Kind {
			out[ObjectKey{Kind: o.Kind, NamespacedName: types.NamespacedName{Namespace: o.Namespace, Name: o.Name}}] = o
		}
	}
	return out, nil
}

// expect answers with Run: one pass over the stored world, then Run
// applied until nothing more is due.
func (w *adaptedWorld) expect(objs []*unstructured.Unstructured, observed any, now, _ time.Time) (Expected, error) {
	obs, _ := observed.(json.RawMessage)
	pass, err := w.run(objs, obs, now)
	if err != nil {
		return Expected{}, err
	}
	out := map[ObjectKey]Answer{}
	for k, o := range pass {
		out[k] = Answer{Pass: w.a.status.Vocabulary.Owned(o.Conditions), PassRelease: o.Finalizer == conditions.FinalizerRemove,
			Due: due(o)}
	}
	world := make([]*unstructured.Unstructured, len(objs))
	for i, u := range objs {
		world[i] = u.DeepCopy()
	}
	outs, rounds, judged := pass, 1, false
	for range engineRoundsCap(len(objs)) {
		if !anyDue(outs) {
			judged = true
			break
		}
		if world, err = w.apply(world, outs); err != nil {
			return Expected{}, err
		}
		if outs, err = w.run(world, obs, now); err != nil {
			return Expected{}, err
		}
		rounds++
	}
	for k, e := range out {
		o, held := outs[k]
		switch {
		case held:
			e.Settled, e.Release = w.a.status.Vocabulary.Owned(o.Conditions), o.Finalizer == conditions.FinalizerRemove
		case w.a.status.Finalizer != "":
			// Released on the way: once settled, it must be gone.
			e.Settled, e.Release = e.Pass, true
		default:
			continue
		}
		e.Judged = judged
		out[k] = e
	}
	return Expected{Objects: out, Rounds: rounds}, nil
}

// due reports whether an outcome writes a status or moves a finalizer.
func due(o scenario.Outcome) bool { return o.Write || o.Finalizer != conditions.FinalizerKeep }

// anyDue reports whether some outcome is due.
func anyDue(outs map[ObjectKey]scenario.Outcome) bool {
	for _, o := range outs {
		if due(o) {
			return true
		}
	}
	return false
}

// apply writes each outcome into the world as a host would: a due write
// sets the status Run computed and its conditions, and the finalizer is
// added or removed; a deleted object no finalizer holds is gone.
func (w *adaptedWorld) apply(world []*unstructured.Unstructured, outs map[ObjectKey]scenario.Outcome) ([]*unstructured.Unstructured, error) {
	kept := world[:0]
	for _, u := range world {
		o, ok := outs[keyOf(u)]
		if !ok {
			kept = append(kept, u)
			continue
		}
		if o.Write {
			status, _, _ := unstructured.NestedMap(u.Object, "status")
			if status == nil {
				status = map[string]any{}
			}
			if len(o.Status) > 0 {
				var computed map[string]any
				if err := json.Unmarshal(o.Status, &computed); err != nil {
					return nil, fmt.Errorf("outcome of %s: status: %w", keyOf(u), err)
				}
				for k, v := range computed {
					status[k] = v
				}
			}
			conds := make([]any, 0, len(o.Conditions))
			for _, c := range o.Conditions {
				m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&c)
				if err != nil {
					return nil, err
				}
				conds = append(conds, m)
			}
			status["conditions"] = conds
			u.Object["status"] = status
		}
		if f := w.a.status.Finalizer; f != "" {
			switch fs := u.GetFinalizers(); o.Finalizer {
			case conditions.FinalizerAdd:
				if !slices.Contains(fs, f) {
					u.SetFinalizers(append(fs, f))
				}
			case conditions.FinalizerRemove:
				u.SetFinalizers(slices.DeleteFunc(fs, func(x string) bool { return x == f }))
			}
		}
		if u.GetDeletionTimestamp() != nil && len(u.GetFinalizers()) == 0 {
			continue
		}
		kept = append(kept, u)
	}
	return kept, nil
}
