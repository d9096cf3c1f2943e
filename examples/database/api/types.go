// Package api is the Database kind's API (group db.example.dev, version
// v1): its Go type, as a controller-runtime host reads it, and its CRD.
package api

import (
	"embed"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The kind's identity, and the finalizer its host holds on each Database
// until the database behind it is dropped.
const (
	Group      = "db.example.dev"
	Version    = "v1"
	APIVersion = Group + "/" + Version
	Kind       = "Database"
	Finalizer  = "db.example.dev/deprovision"
)

// GroupVersion is the API's group and version.
var GroupVersion = schema.GroupVersion{Group: Group, Version: Version}

// CRDs holds the kind's CustomResourceDefinition.
//
//go:embed crds/*.yaml
var CRDs embed.FS

// Database asks for one database of an engine, whose credentials are in
// a Secret of its namespace.
type Database struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              DatabaseSpec   `json:"spec"`
	Status            DatabaseStatus `json:"status,omitempty"`
}

// DatabaseSpec is what the user asks for.
type DatabaseSpec struct {
	// Engine is postgres or mysql.
	Engine string `json:"engine"`
	// SecretRef names the Secret, in the Database's namespace, holding
	// the credentials.
	SecretRef string `json:"secretRef"`
}

// DatabaseStatus is what the host writes.
type DatabaseStatus struct {
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// GetConditions returns the status conditions, as writeplan reads them.
func (d *Database) GetConditions() []metav1.Condition { return d.Status.Conditions }

// DeepCopyObject copies d; metadata and conditions are the only parts
// that hold references.
func (d *Database) DeepCopyObject() runtime.Object {
	c := *d
	c.ObjectMeta = *d.ObjectMeta.DeepCopy()
	c.Status.Conditions = slices.Clone(d.Status.Conditions)
	return &c
}

// DatabaseList is a list of Databases.
type DatabaseList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Database `json:"items"`
}

// DeepCopyObject copies l and its items.
func (l *DatabaseList) DeepCopyObject() runtime.Object {
	c := *l
	c.Items = make([]Database, len(l.Items))
	for i := range l.Items {
		c.Items[i] = *l.Items[i].DeepCopyObject().(*Database)
	}
	return &c
}

// AddToScheme registers the kind's Go types.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &Database{}, &DatabaseList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
