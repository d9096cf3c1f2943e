package hostcheck

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/condengine/condengine/binding/policy"
	"github.com/condengine/condengine/conditions"
)

// Rule is one rule the harness holds a host to. Its name is its stable
// ID; Text is the rule in one sentence.
type Rule struct {
	ID   string
	Text string
}

// The rules, safety first (checked at every write), then liveness.
var (
	RuleGenerationForward = Rule{"GenerationForward", "our conditions never go back to an older observedGeneration than the store holds"}
	RuleFreshView         = Rule{"FreshView", "every write of our kinds carries the resourceVersion it was computed from, never older than one the host had already read"}
	RuleOthersUntouched   = Rule{"OthersUntouched", "no condition of another writer is changed, removed or co-owned, and no type outside our vocabulary is written"}
	RuleWriterTiming      = Rule{"WriterTiming", "status writes of one object keep the writer policy's gap, its backoff after failed writes, and its spacing of put-backs in a fight over the status"}
	RuleFinalizerLast     = Rule{"FinalizerLast", "a finalizer is released only when the engine decides Remove for the stored object, and never before its status write"}
	RuleLeaderOnly        = Rule{"LeaderOnly", "a replica that does not hold the lease never writes"}
	RuleNoPendingOverGood = Rule{"NoPendingOverGood", "a bare Pending is never written over a good status of the generation served"}
	RuleNoPanic           = Rule{"NoPanic", "the host does not panic"}
	RuleSettles           = Rule{"Settles", "once faults and edits stop, the stored status reaches the engine's answer for the final world within the budget"}
	RuleQuiet             = Rule{"Quiet", "once the stored status equals the engine's answer, nothing more is written"}
)

// Rules lists every rule, in the order above.
func Rules() []Rule {
	return []Rule{RuleGenerationForward, RuleFreshView, RuleOthersUntouched, RuleWriterTiming, RuleFinalizerLast,
		RuleLeaderOnly, RuleNoPendingOverGood, RuleWriteAnswer, RuleNoPanic, RuleSettles, RuleQuiet}
}

// Violation is one broken rule.
type Violation struct {
	Rule Rule
	// Step is the schedule event during which it broke (1-based); 0 in
	// the liveness phase after the schedule.
	Step int
	// Write is the write that broke it, "" for a rule judged on the store.
	Write string
	// Detail says what was wrong; Expected is the engine's answer, when
	// one applies.
	Detail, Expected string
	// Wrote is our conditions as the breaking write left them, when it
	// wrote a status.
	Wrote string
}

func (r *run) violate(rule Rule, w, detail, expected string) {
	if r.bad != nil {
		return
	}
	r.bad = &Violation{Rule: rule, Step: r.step + 1, Write: w, Detail: detail, Expected: expected}
}

func (r *run) violateIn(rule Rule, w write, detail, expected string) {
	r.violate(rule, w.String(), detail, expected)
}

// checkTiming holds a status write to the writer policy's timing as
// this incarnation's own writes of the object, and the foreign edits it
// could have seen, set it: the gap after the last write, the backoff
// after failed ones, and during a fight the spacing of put-backs.
//
// A foreign edit is counted as the host's policy counts one, from the
// view the write was computed from (the version its resourceVersion
// names): our conditions there differ from what this incarnation last
// wrote, on a version newer than its own write, and were not counted
// already. Its time is when the incarnation first read that status. The
// count can only fall short of the host's (an edit it saw and that was
// undone before it wrote is not counted, nor a stale read of its own
// write), and the times only come early, so the waits demanded never
// exceed what the policy asks of the host.
func (r *run) checkTiming(p *replica, w write, before *unstructured.Unstructured) {
	uid := before.GetUID()
	m, ok := p.writer[uid]
	if !ok || m.LastEnd.IsZero() {
		return
	}
	l := r.o.Limits
	foreign := false
	if vw := p.views[w.key]; vw != nil && w.guard == vw.rv && vw.rv > vw.wrote &&
		len(m.Written) > 0 && !conditions.Equal(vw.ours, m.Written) {
		foreign = true
		if m.Foreign == nil || !conditions.Equal(vw.ours, m.Foreign) {
			at := vw.since
			if r.now.Before(at) {
				at = r.now // the clock went back since the read
			}
			m = l.Observe(m, policy.Decision{ForeignEdit: true}, vw.ours, at)
		}
	}
	// A fight ends once Quiet has passed since the last foreign edit.
	m = l.Observe(m, policy.Decision{}, nil, r.now)
	p.writer[uid] = m
	wait, why := l.WriteGap, "the write gap"
	if b := l.Backoff().Wait(m.Failures); b > wait {
		wait, why = b, fmt.Sprintf("the backoff after %d failed write(s)", m.Failures)
	}
	if foreign && !m.FightSince.IsZero() {
		if b := l.Backoff().Wait(m.FightEdits); b > wait {
			wait, why = b, fmt.Sprintf("the spacing of put-backs in a fight (%d foreign edit(s) since it began at %s)",
				m.FightEdits, m.FightSince.Format("15:04:05"))
		}
	}
	if r.now.Before(m.LastEnd.Add(wait)) {
		r.violateIn(RuleWriterTiming, w, fmt.Sprintf("written %v after the last write attempt ended; the policy waits %v, %s",
			r.now.Sub(m.LastEnd), wait, why), "")
	}
}

// checkChange compares the stored object before and after a write of
// the host.
func (r *run) checkChange(p *replica, w write, before, after *unstructured.Unstructured) {
	kind := w.gvk.Kind
	defer func() {
		if r.bad != nil && r.bad.Write == w.String() && r.bad.Wrote == "" && after != nil {
			r.bad.Wrote = formatConditions(ourConditions(after, r.sys.ours))
		}
	}()
	var b, a []metav1.Condition
	b = conditionsOf(before)
	if after != nil {
		a = conditionsOf(after)
	}
	for _, c := range b {
		if r.sys.ours(kind, c.Type) {
			continue
		}
		x := find(a, c.Type)
		if after != nil && (x == nil || !sameCondition(*x, c)) {
			r.violateIn(RuleOthersUntouched, w, fmt.Sprintf("another writer's condition %s was changed or removed", c.Type), "")
			return
		}
	}
	for _, c := range a {
		if !r.sys.ours(kind, c.Type) && find(b, c.Type) == nil {
			r.violateIn(RuleOthersUntouched, w, fmt.Sprintf("wrote the condition type %s, outside our vocabulary", c.Type), "")
			return
		}
	}
	if after != nil {
		for _, t := range ownedConditionTypes(after, r.sys.FieldManager) {
			if !r.sys.ours(kind, t) {
				r.violateIn(RuleOthersUntouched, w, fmt.Sprintf("our field manager %s now co-owns the condition %s of another writer", r.sys.FieldManager, t), "")
				return
			}
		}
	}
	for _, c := range a {
		if x := find(b, c.Type); x != nil && r.sys.ours(kind, c.Type) && c.ObservedGeneration < x.ObservedGeneration &&
			!(after != nil && r.world.MayGoBack != nil && r.world.MayGoBack(after, c)) {
			r.violateIn(RuleGenerationForward, w, fmt.Sprintf("%s went from observedGeneration %d back to %d", c.Type, x.ObservedGeneration, c.ObservedGeneration), "")
			return
		}
	}
	if gb, ga := find(b, "Ready"), find(a, "Ready"); gb != nil && ga != nil && r.sys.ours(kind, "Ready") &&
		gb.Status == metav1.ConditionTrue && gb.ObservedGeneration == before.GetGeneration() &&
		ga.Reason == "Pending" && ga.ObservedGeneration == gb.ObservedGeneration {
		r.violateIn(RuleNoPendingOverGood, w, fmt.Sprintf("Ready True of generation %d replaced by the bare Pending", gb.ObservedGeneration), "")
		return
	}
	if f := r.sys.finalizer(kind); f != "" && slices.Contains(before.GetFinalizers(), f) && (after == nil || !slices.Contains(after.GetFinalizers(), f)) {
		r.checkRelease(p, w, before, after)
	}
}

// checkRelease holds a finalizer's release to the engine's answer for
// the object as stored before the write, and to its status having been
// written first (or in the same write). The rest of the world is judged
// as the host could have read it: as stored when the reconcile began
// (the engine decides one pass's outcomes together, and the host carries
// them out one request after another, so the pass's own earlier writes,
// an Offering released before the Subscription that needed it, do not
// count against its later ones), or as the replica's cache held it, which
// may lag the store: no host can rule out a change it has not been told
// of. Either view that releases allows the release.
func (r *run) checkRelease(p *replica, w write, before, after *unstructured.Unstructured) {
	e, err := r.releaseAnswer(r.worldAt(r.passFrom), w.key, before)
	if err == nil && !e.PassRelease {
		var c Answer
		if c, err = r.releaseAnswer(p.cached(), w.key, before); err == nil && c.PassRelease {
			e = c
		}
	}
	if err != nil {
		r.violateIn(RuleFinalizerLast, w, "the engine refused the world: "+err.Error(), "")
		return
	}
	if !e.PassRelease {
		r.violateIn(RuleFinalizerLast, w, "the finalizer was released while the engine does not decide Remove for the stored object", "Finalizer: Keep")
		return
	}
	status := conditionsOf(before)
	if after != nil {
		status = conditionsOf(after)
	}
	if d := diffOurs(r.sys, w.key.Kind, status, e.Pass); d != "" {
		r.violateIn(RuleFinalizerLast, w, "the finalizer was released before the status that allows it was written: "+d, formatConditions(e.Pass))
	}
}

// releaseAnswer is the engine's answer for the object at k, as stored
// before the release, in the world objs otherwise.
func (r *run) releaseAnswer(objs []*unstructured.Unstructured, k ObjectKey, before *unstructured.Unstructured) (Answer, error) {
	objs = slices.DeleteFunc(slices.Clone(objs), func(u *unstructured.Unstructured) bool { return keyOf(u) == k })
	objs = append(objs, before)
	sortObjects(objs)
	exp, err := r.expect(objs)
	if err != nil {
		return Answer{}, err
	}
	return exp.Objects[k], nil
}

// worldAt is the store as the first n events of its log left it, sorted
// as listAll sorts.
func (r *run) worldAt(n int) []*unstructured.Unstructured {
	at := map[ObjectKey]*unstructured.Unstructured{}
	for _, ev := range r.log[:n] {
		if ev.obj == nil {
			delete(at, ev.key)
			continue
		}
		at[ev.key] = ev.obj
	}
	out := make([]*unstructured.Unstructured, 0, len(at))
	for _, u := range at {
		out = append(out, u)
	}
	sortObjects(out)
	return out
}

func conditionsOf(u *unstructured.Unstructured) []metav1.Condition {
	raw, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	var out []metav1.Condition
	for _, x := range raw {
		m, ok := x.(map[string]any)
		if !ok {
			continue
		}
		var c metav1.Condition
		if runtime.DefaultUnstructuredConverter.FromUnstructured(m, &c) == nil {
			out = append(out, c)
		}
	}
	return out
}

func find(cs []metav1.Condition, t string) *metav1.Condition {
	for i := range cs {
		if cs[i].Type == t {
			return &cs[i]
		}
	}
	return nil
}

func sameCondition(a, b metav1.Condition) bool {
	return a.Type == b.Type && a.Status == b.Status && a.Reason == b.Reason && a.Message == b.Message &&
		a.ObservedGeneration == b.ObservedGeneration && a.LastTransitionTime.Equal(&b.LastTransitionTime)
}

// diffOurs compares our conditions on an object with the engine's,
// lastTransitionTime aside (it stamps when a write happened); "" when
// they agree.
func diffOurs(sys *harnessSystem, kind string, stored, want []metav1.Condition) string {
	var got []metav1.Condition
	for _, c := range stored {
		if sys.ours(kind, c.Type) {
			got = append(got, c)
		}
	}
	if sameOurs(got, want) {
		return ""
	}
	return "stored " + formatConditions(got)
}

// sameOurs reports whether two lists of our conditions agree, in order,
// lastTransitionTime aside.
func sameOurs(a, b []metav1.Condition) bool {
	return slices.EqualFunc(a, b, func(a, b metav1.Condition) bool {
		return a.Type == b.Type && a.Status == b.Status && a.Reason == b.Reason && a.Message == b.Message && a.ObservedGeneration == b.ObservedGeneration
	})
}

func formatConditions(cs []metav1.Condition) string {
	if len(cs) == 0 {
		return "[]"
	}
	parts := make([]string, 0, len(cs))
	for _, c := range cs {
		parts = append(parts, fmt.Sprintf("%s=%s/%s@%d %q", c.Type, c.Status, c.Reason, c.ObservedGeneration, c.Message))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// ownedConditionTypes lists the condition types manager's managedFields
// entries name on the object.
func ownedConditionTypes(u *unstructured.Unstructured, manager string) []string {
	var out []string
	for _, mf := range u.GetManagedFields() {
		if mf.Manager != manager || mf.FieldsV1 == nil {
			continue
		}
		var fields map[string]any
		if json.Unmarshal(mf.FieldsV1.GetRawBytes(), &fields) != nil {
			continue
		}
		status, _ := fields["f:status"].(map[string]any)
		conds, _ := status["f:conditions"].(map[string]any)
		for k := range conds {
			var key struct {
				Type string `json:"type"`
			}
			if strings.HasPrefix(k, "k:") && json.Unmarshal([]byte(k[2:]), &key) == nil {
				out = append(out, key.Type)
			}
		}
	}
	slices.Sort(out)
	return out
}
