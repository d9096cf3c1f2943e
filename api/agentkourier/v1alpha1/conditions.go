package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// The getters and setters of status.conditions, the shape the condition
// helpers of Cluster API and flux (and the module's writeplan) read.

// GetConditions returns the Binding's status conditions.
func (b *Binding) GetConditions() []metav1.Condition { return b.Status.Conditions }

// SetConditions replaces the Binding's status conditions.
func (b *Binding) SetConditions(c []metav1.Condition) { b.Status.Conditions = c }

// GetConditions returns the AgentBackend's status conditions.
func (a *AgentBackend) GetConditions() []metav1.Condition { return a.Status.Conditions }

// SetConditions replaces the AgentBackend's status conditions.
func (a *AgentBackend) SetConditions(c []metav1.Condition) { a.Status.Conditions = c }

// GetConditions returns the ChatConnection's status conditions.
func (c *ChatConnection) GetConditions() []metav1.Condition { return c.Status.Conditions }

// SetConditions replaces the ChatConnection's status conditions.
func (c *ChatConnection) SetConditions(conds []metav1.Condition) { c.Status.Conditions = conds }
