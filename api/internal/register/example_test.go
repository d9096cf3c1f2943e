package register_test

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/condengine/condengine/api/internal/register"
)

// A group version registered with one kind (meta/v1's
// PartialObjectMetadata stands in for one) is known to the scheme, with
// the meta/v1 options beside it.
func Example() {
	gv := schema.GroupVersion{Group: "example.dev", Version: "v1"}
	s := runtime.NewScheme()
	b := register.Builder(gv, &metav1.PartialObjectMetadata{})
	if err := b.AddToScheme(s); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Recognizes(gv.WithKind("PartialObjectMetadata")), s.Recognizes(gv.WithKind("ListOptions")))
	// Output: true true
}
