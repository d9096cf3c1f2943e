package register

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Builder returns the scheme builder of one group version: it adds objs
// (each kind and its List) under gv, and the meta/v1 types (ListOptions,
// Status, …) a client sends and reads beside them.
func Builder(gv schema.GroupVersion, objs ...runtime.Object) runtime.SchemeBuilder {
	return runtime.NewSchemeBuilder(func(s *runtime.Scheme) error {
		s.AddKnownTypes(gv, objs...)
		metav1.AddToGroupVersion(s, gv)
		return nil
	})
}
