package subscriptiontest

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/subscription"
)

// Option changes a Subscription being built.
type Option func(*finopsv1.Subscription)

// New builds a Subscription of generation 1 bound to offering shop/base,
// with uid "u-<namespace>-<name>", then applies opts in order.
func New(namespace, name string, opts ...Option) finopsv1.Subscription {
	s := finopsv1.Subscription{
		TypeMeta: metav1.TypeMeta{APIVersion: finopsv1.APIVersion, Kind: finopsv1.KindSubscription},
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name,
			UID: types.UID("u-" + namespace + "-" + name), Generation: 1},
		Spec: finopsv1.SubscriptionSpec{OfferingRef: finopsv1.Reference{Namespace: "shop", Name: "base"}},
	}
	for _, o := range opts {
		o(&s)
	}
	return s
}

// UID sets metadata.uid.
func UID(uid string) Option {
	return func(s *finopsv1.Subscription) { s.UID = types.UID(uid) }
}

// Generation sets metadata.generation.
func Generation(g int64) Option {
	return func(s *finopsv1.Subscription) { s.Generation = g }
}

// Offering sets spec.offeringRef.
func Offering(namespace, name string) Option {
	return func(s *finopsv1.Subscription) {
		s.Spec.OfferingRef = finopsv1.Reference{Namespace: namespace, Name: name}
	}
}

// Parent sets spec.parent.subscriptionRef.
func Parent(namespace, name string) Option {
	return func(s *finopsv1.Subscription) {
		s.Spec.Parent = &finopsv1.Parent{SubscriptionRef: finopsv1.Reference{Namespace: namespace, Name: name}}
	}
}

// Policy sets spec.lifecycle.onParentDeactivate, creating the block.
func Policy(p string) Option {
	return func(s *finopsv1.Subscription) {
		if s.Spec.Lifecycle == nil {
			s.Spec.Lifecycle = &finopsv1.SubscriptionLifecycle{}
		}
		s.Spec.Lifecycle.OnParentDeactivate = p
	}
}

// Target sets spec.lifecycle.targetRef, creating the block.
func Target(apiVersion, kind, namespace, name string) Option {
	return func(s *finopsv1.Subscription) {
		if s.Spec.Lifecycle == nil {
			s.Spec.Lifecycle = &finopsv1.SubscriptionLifecycle{}
		}
		s.Spec.Lifecycle.TargetRef = &finopsv1.TargetRef{APIVersion: apiVersion, Kind: kind, Namespace: namespace, Name: name}
	}
}

// Active gives the Subscription the status of one activated at `at` in
// the family of root: Ready and Active True ActivationSucceeded.
func Active(at time.Time, root string) Option {
	return func(s *finopsv1.Subscription) {
		t := metav1.NewTime(at)
		s.Status.ActivatedAt = &t
		s.Status.CompatibilityRoot = root
		s.Status.Ready = metav1.ConditionTrue
		s.Status.Conditions = []metav1.Condition{
			cond(subscription.TypeReady, metav1.ConditionTrue, subscription.ReasonActivationSucceeded, s.Generation, at),
			cond(subscription.TypeActive, metav1.ConditionTrue, subscription.ReasonActivationSucceeded, s.Generation, at),
		}
	}
}

// Deactivated gives an activated Subscription the status of one that
// ended at `at` for reason (an Active=False reason).
func Deactivated(at time.Time, reason subscription.Reason) Option {
	return func(s *finopsv1.Subscription) {
		t := metav1.NewTime(at)
		s.Status.DeactivatedAt = &t
		s.Status.Ready = metav1.ConditionFalse
		s.Status.Conditions = []metav1.Condition{
			cond(subscription.TypeReady, metav1.ConditionFalse, subscription.ReasonValidationSucceeded, s.Generation, at),
			cond(subscription.TypeActive, metav1.ConditionFalse, reason, s.Generation, at),
		}
	}
}

// Deleting sets metadata.deletionTimestamp and the finalizer.
func Deleting(at time.Time) Option {
	return func(s *finopsv1.Subscription) {
		t := metav1.NewTime(at)
		s.DeletionTimestamp = &t
		s.Finalizers = []string{finopsv1.SubscriptionFinalizer}
	}
}

func cond(typ string, st metav1.ConditionStatus, reason subscription.Reason, gen int64, at time.Time) metav1.Condition {
	return metav1.Condition{Type: typ, Status: st, Reason: string(reason), ObservedGeneration: gen,
		LastTransitionTime: metav1.NewTime(at.UTC().Truncate(time.Second))}
}

// ReadyOffering builds an Offering whose status.ready is True and which
// requires the given Offerings ("namespace/name" pairs as References).
func ReadyOffering(namespace, name string, requires ...finopsv1.Reference) finopsv1.Offering {
	o := finopsv1.Offering{
		TypeMeta:   metav1.TypeMeta{APIVersion: finopsv1.APIVersion, Kind: finopsv1.KindOffering},
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, UID: types.UID("o-" + namespace + "-" + name), Generation: 1},
		Status:     finopsv1.OfferingStatus{Ready: metav1.ConditionTrue},
	}
	if len(requires) > 0 {
		o.Spec.Compatibility = &finopsv1.Compatibility{RequiredOfferings: requires}
	}
	return o
}

// Fee gives an Offering a subscription fee.
func Fee(o finopsv1.Offering, priceMicros int64, period, alignment string, minPeriods int64) finopsv1.Offering {
	o.Spec.Pricing.SubscriptionFee = &finopsv1.SubscriptionFee{PriceMicros: priceMicros, Period: period, TickAlignment: alignment}
	if minPeriods > 0 {
		o.Spec.Pricing.SubscriptionFee.MinPeriods = &minPeriods
	}
	return o
}
