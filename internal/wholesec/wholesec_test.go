package wholesec

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

var (
	at   = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	half = at.Add(500 * time.Millisecond)
)

type obj struct {
	meta  metav1.ObjectMeta
	conds []metav1.Condition
}

func whole(o *obj) bool { return MetaWhole(&o.meta) && ConditionsWhole(o.conds) }
func fix(o *obj)        { FixMeta(&o.meta); o.conds = Conditions(o.conds) }

func TestTime_DropsTheFraction(t *testing.T) {
	assert.True(t, Time(metav1.NewTime(half)).Time.Equal(at))
	assert.True(t, Whole(Time(metav1.NewTime(half))))
	p := metav1.NewTime(half)
	got := Ptr(&p)
	assert.NotSame(t, &p, got, "a new value, the object's is not written")
	assert.True(t, p.Equal(&metav1.Time{Time: half}), "the object's instant is left as it was")
	w := metav1.NewTime(at)
	assert.Same(t, &w, Ptr(&w), "a whole instant is returned as it is")
	assert.Nil(t, Ptr(nil))
}

func TestObjects_WholeListIsReturnedAsItIsWithoutAllocating(t *testing.T) {
	objs := []obj{{meta: metav1.ObjectMeta{CreationTimestamp: metav1.NewTime(at)},
		conds: []metav1.Condition{{Type: "Ready", LastTransitionTime: metav1.NewTime(at)}}}}
	got := Objects(objs, whole, fix)
	assert.Same(t, &objs[0], &got[0])
	assert.Zero(t, testing.AllocsPerRun(100, func() { Objects(objs, whole, fix) }))
}

func TestObjects_FractionIsDroppedInACopy(t *testing.T) {
	del := metav1.NewTime(half)
	objs := []obj{
		{meta: metav1.ObjectMeta{Name: "whole", CreationTimestamp: metav1.NewTime(at)}},
		{meta: metav1.ObjectMeta{Name: "frac", CreationTimestamp: metav1.NewTime(half), DeletionTimestamp: &del},
			conds: []metav1.Condition{{Type: "Ready", LastTransitionTime: metav1.NewTime(half)}}},
	}
	got := Objects(objs, whole, fix)
	assert.NotSame(t, &objs[0], &got[0])
	for _, o := range got {
		assert.True(t, whole(&o), o.meta.Name)
	}
	assert.True(t, got[1].meta.CreationTimestamp.Equal(&metav1.Time{Time: at}))
	assert.Equal(t, 500*time.Millisecond, time.Duration(objs[1].meta.CreationTimestamp.Nanosecond()), "the original is not changed")
	assert.Equal(t, 500*time.Millisecond, time.Duration(objs[1].meta.DeletionTimestamp.Nanosecond()))
	assert.Equal(t, 500*time.Millisecond, time.Duration(objs[1].conds[0].LastTransitionTime.Nanosecond()))
}
