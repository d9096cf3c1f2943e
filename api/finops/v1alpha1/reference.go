package v1alpha1

// Reference names a namespaced object of a known kind: an Offering or a
// Subscription. Namespace is required and never defaulted from the
// referrer.
type Reference struct {
	// Name is the object's name.
	// +required
	Name string `json:"name"`
	// Namespace is the object's namespace; required, never defaulted.
	// +required
	// +kubebuilder:validation:MinLength=1
	Namespace string `json:"namespace"`
}

// String is "namespace/name".
func (r Reference) String() string { return r.Namespace + "/" + r.Name }

// Parent-loss policies of spec.lifecycle.onParentDeactivate, on an
// Offering and on a Subscription.
const (
	PolicyDeactivate = "Deactivate"
	PolicyOrphan     = "Orphan"
)
