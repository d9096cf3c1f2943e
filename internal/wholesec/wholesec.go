package wholesec

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Whole reports whether t has no fraction of a second.
func Whole(t metav1.Time) bool { return t.Nanosecond() == 0 }

// Time is t without its fraction of a second.
func Time(t metav1.Time) metav1.Time {
	if Whole(t) {
		return t
	}
	return metav1.Time{Time: t.Truncate(time.Second)}
}

// Ptr is t without its fraction: t itself when it has none (nil
// included), else a new value, so the object t belongs to is not
// changed.
func Ptr(t *metav1.Time) *metav1.Time {
	if t == nil || Whole(*t) {
		return t
	}
	w := Time(*t)
	return &w
}

// PtrWhole reports whether t is nil or has no fraction.
func PtrWhole(t *metav1.Time) bool { return t == nil || Whole(*t) }

// ConditionsWhole reports whether every lastTransitionTime of conds is
// whole.
func ConditionsWhole(conds []metav1.Condition) bool {
	for i := range conds {
		if !Whole(conds[i].LastTransitionTime) {
			return false
		}
	}
	return true
}

// Conditions is conds with every lastTransitionTime read at whole
// seconds: conds itself when none has a fraction, else a copy.
func Conditions(conds []metav1.Condition) []metav1.Condition {
	if ConditionsWhole(conds) {
		return conds
	}
	out := make([]metav1.Condition, len(conds))
	copy(out, conds)
	for i := range out {
		out[i].LastTransitionTime = Time(out[i].LastTransitionTime)
	}
	return out
}

// MetaWhole reports whether m's creationTimestamp and deletionTimestamp
// have no fraction.
func MetaWhole(m *metav1.ObjectMeta) bool {
	return Whole(m.CreationTimestamp) && PtrWhole(m.DeletionTimestamp)
}

// FixMeta drops the fraction of m's creationTimestamp and
// deletionTimestamp; m must be a copy the caller owns (the deletion
// instant is replaced, not written through).
func FixMeta(m *metav1.ObjectMeta) {
	m.CreationTimestamp = Time(m.CreationTimestamp)
	m.DeletionTimestamp = Ptr(m.DeletionTimestamp)
}

// Objects returns objs with every instant read at whole seconds: objs
// itself when whole reports every object whole, else a copy of the list
// in which fix has been applied to each object that is not. fix works
// on the copy and must replace, not write through, anything the copy
// shares with the original (a condition list, a pointer).
func Objects[T any](objs []T, whole func(*T) bool, fix func(*T)) []T {
	first := -1
	for i := range objs {
		if !whole(&objs[i]) {
			first = i
			break
		}
	}
	if first < 0 {
		return objs
	}
	out := make([]T, len(objs))
	copy(out, objs)
	for i := first; i < len(out); i++ {
		if !whole(&out[i]) {
			fix(&out[i])
		}
	}
	return out
}
