package hostcheck

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

// write is one write request of the host, as the harness judges it.
type write struct {
	verb   string // "update", "patch", "apply", "create", "delete"
	status bool   // on the status subresource
	gvk    schema.GroupVersionKind
	key    ObjectKey
	guard  int64 // the resourceVersion precondition; 0: none
	do     func() error
}

func (w write) String() string {
	s := w.verb
	if w.status {
		s = "status " + s
	}
	g := "without a resourceVersion"
	if w.guard != 0 {
		g = fmt.Sprintf("at resourceVersion %d", w.guard)
	}
	return fmt.Sprintf("%s of %s %s", s, w.key, g)
}

// client is what replica p's host talks to: reads from p's cache, writes
// to the store through the harness.
func (r *run) client(p *replica) client.Client {
	scheme := r.sys.scheme
	return interceptor.NewClient(r.store, interceptor.Funcs{
		Get: func(_ context.Context, _ client.WithWatch, key client.ObjectKey, obj client.Object, _ ...client.GetOption) error {
			if err := r.getFault(scheme, obj, key); err != nil {
				return err
			}
			return p.read(scheme, key, obj)
		},
		List: func(_ context.Context, _ client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
			if err := r.readFault(scheme, list, "List"); err != nil {
				return err
			}
			return p.list(scheme, list, opts...)
		},
		Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			return r.judge(p, objectWrite(scheme, "create", false, obj, 0, func() error { return c.Create(ctx, obj, opts...) }))
		},
		Delete: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteOption) error {
			var do client.DeleteOptions
			do.ApplyOptions(opts)
			var guard int64
			if do.Preconditions != nil && do.Preconditions.ResourceVersion != nil {
				guard = rv(*do.Preconditions.ResourceVersion)
			}
			return r.judge(p, objectWrite(scheme, "delete", false, obj, guard, func() error { return c.Delete(ctx, obj, opts...) }))
		},
		DeleteAllOf: func(context.Context, client.WithWatch, client.Object, ...client.DeleteAllOfOption) error {
			return fmt.Errorf("hostcheck: DeleteAllOf is not supported")
		},
		Update: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
			return r.judge(p, objectWrite(scheme, "update", false, obj, rv(obj.GetResourceVersion()), func() error { return c.Update(ctx, obj, opts...) }))
		},
		Patch: func(ctx context.Context, c client.WithWatch, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
			return r.judge(p, objectWrite(scheme, "patch", false, obj, patchGuard(obj, patch), func() error { return c.Patch(ctx, obj, patch, opts...) }))
		},
		Apply: func(ctx context.Context, c client.WithWatch, obj runtime.ApplyConfiguration, opts ...client.ApplyOption) error {
			return r.judge(p, applyWrite(false, obj, func() error { return c.Apply(ctx, obj, opts...) }))
		},
		SubResourceUpdate: func(ctx context.Context, c client.Client, sub string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
			return r.judge(p, objectWrite(scheme, "update", sub == "status", obj, rv(obj.GetResourceVersion()), func() error { return c.SubResource(sub).Update(ctx, obj, opts...) }))
		},
		SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
			return r.judge(p, objectWrite(scheme, "patch", sub == "status", obj, patchGuard(obj, patch), func() error { return c.SubResource(sub).Patch(ctx, obj, patch, opts...) }))
		},
		SubResourceApply: func(ctx context.Context, c client.Client, sub string, obj runtime.ApplyConfiguration, opts ...client.SubResourceApplyOption) error {
			return r.judge(p, applyWrite(sub == "status", obj, func() error { return c.SubResource(sub).Apply(ctx, obj, opts...) }))
		},
		SubResourceCreate: func(context.Context, client.Client, string, client.Object, client.Object, ...client.SubResourceCreateOption) error {
			return fmt.Errorf("hostcheck: subresource create is not supported")
		},
	})
}

// readFault is the error a read of obj's kind fails with now, if the
// world's reads of that kind fail; suffix is trimmed from the kind (a
// list's).
func (r *run) readFault(scheme *runtime.Scheme, obj runtime.Object, suffix string) error {
	gvk, err := apiutil.GVKForObject(obj, scheme)
	if err != nil {
		return nil // the read itself reports it
	}
	if r.world.ReadError == nil {
		return nil
	}
	return r.world.ReadError(strings.TrimSuffix(gvk.Kind, suffix))
}

func objectWrite(scheme *runtime.Scheme, verb string, status bool, obj client.Object, guard int64, do func() error) write {
	gvk, err := apiutil.GVKForObject(obj, scheme)
	if err != nil {
		gvk = obj.GetObjectKind().GroupVersionKind()
	}
	return write{verb: verb, status: status, gvk: gvk, guard: guard, do: do,
		key: ObjectKey{Kind: gvk.Kind, NamespacedName: types.NamespacedName{Namespace: obj.GetNamespace(), Name: obj.GetName()}}}
}

func applyWrite(status bool, obj runtime.ApplyConfiguration, do func() error) write {
	u := &unstructured.Unstructured{}
	if data, err := json.Marshal(obj); err == nil {
		_ = json.Unmarshal(data, &u.Object)
	}
	return write{verb: "apply", status: status, gvk: u.GroupVersionKind(), key: keyOf(u), guard: rv(u.GetResourceVersion()), do: do}
}

// patchGuard reads the resourceVersion a patch carries.
func patchGuard(obj client.Object, patch client.Patch) int64 {
	data, err := patch.Data(obj)
	if err != nil {
		return 0
	}
	// A JSON patch sets the precondition with an operation on
	// /metadata/resourceVersion.
	var ops []struct {
		Op, Path string
		Value    any
	}
	if json.Unmarshal(data, &ops) == nil {
		for _, op := range ops {
			if v, ok := op.Value.(string); ok && op.Path == "/metadata/resourceVersion" && (op.Op == "replace" || op.Op == "add" || op.Op == "test") {
				return rv(v)
			}
		}
		return 0
	}
	var m struct {
		Metadata struct {
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
	}
	if json.Unmarshal(data, &m) != nil {
		return 0
	}
	return rv(m.Metadata.ResourceVersion)
}

// judge checks a write against the rules that hold before it, injects
// the armed fault, carries it out and checks the rules that compare the
// stored object before and after.
func (r *run) judge(p *replica, w write) error {
	ours := r.sys.isStatus(w.gvk)
	before, err := getStored(r.ctx, r.store, w.gvk, w.key)
	if err != nil {
		return err
	}
	r.trace = append(r.trace, fmt.Sprintf("     replica %d: %s", p.id, w))
	if w.status && r.sys.isForeign(w.gvk) {
		r.violateIn(RuleOthersUntouched, w, fmt.Sprintf("wrote the status of a kind the engine never decides (%s): no condition type is ours there", w.gvk.Kind), "no write")
	}
	if r.lease != p.id {
		r.violateIn(RuleLeaderOnly, w, fmt.Sprintf("replica %d wrote while replica %d holds the lease", p.id, r.lease), "")
	}
	if ours && w.verb != "create" && w.verb != "delete" {
		if w.guard == 0 {
			r.violateIn(RuleFreshView, w, "the write carries no resourceVersion, so nothing stops it landing on a newer object than it was computed from", "")
		} else if seen := p.seen[w.key]; w.guard < seen {
			r.violateIn(RuleFreshView, w, fmt.Sprintf("computed from resourceVersion %d after this incarnation had read %d", w.guard, seen), "")
		}
	}
	statusWrite := ours && w.status && before != nil
	if statusWrite && r.sys.WriterPolicy && !p.planned[before.GetUID()] {
		r.checkTiming(p, w, before)
	}
	var injected error
	applied := true
	if len(p.fail) > 0 {
		k := p.fail[0]
		p.fail = p.fail[1:]
		r.trace = append(r.trace, fmt.Sprintf("     the store answers %v", k))
		gr := schema.GroupResource{Group: w.gvk.Group, Resource: w.gvk.Kind}
		switch k {
		case failConflict:
			injected, applied = apierrors.NewConflict(gr, w.key.Name, fmt.Errorf("the object has been modified")), false
		case failServer:
			injected, applied = apierrors.NewInternalError(fmt.Errorf("etcd leader changed")), false
		case failTimeoutLost:
			injected, applied = apierrors.NewTimeoutError("request timed out", 1), false
		case failTimeoutApplied:
			injected = apierrors.NewTimeoutError("request timed out", 1)
		}
	}
	var werr error
	switch {
	case applied && w.status && before == nil:
		// The API server's status subresource of a missing object is not
		// found; the fake store would create the object.
		werr = apierrors.NewNotFound(schema.GroupResource{Group: w.gvk.Group, Resource: w.gvk.Kind}, w.key.Name)
	case applied:
		werr = w.do()
	}
	if werr != nil {
		r.trace = append(r.trace, fmt.Sprintf("     the store refuses it: %v", werr))
	}
	if r.quiet && ours && before != nil && !r.answerMoved(w.key, before) {
		r.violateIn(RuleQuiet, w, "the host wrote after the stored status had settled at the engine's answer", "")
	}
	var after *unstructured.Unstructured
	if applied && werr == nil {
		after, err = getStored(r.ctx, r.store, w.gvk, w.key)
		if err != nil {
			return err
		}
		if ours && before != nil {
			r.checkChange(p, w, before, after)
		}
		r.record(w.gvk, w.key, after)
	}
	if statusWrite {
		r.noteWrite(w, after, injected == nil && werr == nil)
	}
	if statusWrite {
		m := p.writer[before.GetUID()]
		if injected != nil || werr != nil {
			m = m.Failed(r.now)
		} else {
			var ours []metav1.Condition
			if after != nil {
				ours = ourConditions(after, r.sys.ours)
				if p.views != nil {
					if p.views[w.key] == nil {
						p.views[w.key] = &view{}
					}
					p.views[w.key].wrote = rv(after.GetResourceVersion())
				}
			}
			m = m.Wrote(ours, r.now)
			p.planned[before.GetUID()] = true
		}
		p.writer[before.GetUID()] = m
	}
	if r.bad != nil {
		panic(stop{})
	}
	if applied && werr == nil && p.crashIn > 0 {
		p.crashIn--
		if p.crashIn == 0 {
			r.trace = append(r.trace, fmt.Sprintf("     replica %d crashes", p.id))
			panic(stop{crash: true})
		}
	}
	if injected != nil {
		return injected
	}
	return werr
}
