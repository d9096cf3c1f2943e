package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// The getters and setters of status.conditions, the shape the condition
// helpers of Cluster API and flux (and the module's writeplan) read.
// CostJob has none: its status carries no conditions.

// GetConditions returns the PriceBook's status conditions.
func (p *PriceBook) GetConditions() []metav1.Condition { return p.Status.Conditions }

// SetConditions replaces the PriceBook's status conditions.
func (p *PriceBook) SetConditions(c []metav1.Condition) { p.Status.Conditions = c }

// GetConditions returns the Offering's status conditions.
func (o *Offering) GetConditions() []metav1.Condition { return o.Status.Conditions }

// SetConditions replaces the Offering's status conditions.
func (o *Offering) SetConditions(c []metav1.Condition) { o.Status.Conditions = c }

// GetConditions returns the Subscription's status conditions.
func (s *Subscription) GetConditions() []metav1.Condition { return s.Status.Conditions }

// SetConditions replaces the Subscription's status conditions.
func (s *Subscription) SetConditions(c []metav1.Condition) { s.Status.Conditions = c }

// GetConditions returns the FinOpsProvider's status conditions.
func (f *FinOpsProvider) GetConditions() []metav1.Condition { return f.Status.Conditions }

// SetConditions replaces the FinOpsProvider's status conditions.
func (f *FinOpsProvider) SetConditions(c []metav1.Condition) { f.Status.Conditions = c }
