package binding

import (
	"reflect"
	"testing"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
)

// A kept check is reused while the spec equals the one it ran on, and
// sameBackendSpec and sameConnSpec name the fields they compare: a field
// added to either spec must be compared there too, or a change to it
// would keep a stale answer. (BindingSpec is compared with ==, which
// covers every field.)
func TestKeptChecks_CompareEveryFieldOfTheSpec(t *testing.T) {
	for typ, compared := range map[reflect.Type]int{
		reflect.TypeFor[akv1.AgentBackendSpec]():   4, // URL, CardPath, AuthSecretRef, AllowedNamespaces
		reflect.TypeFor[akv1.ChatConnectionSpec](): 4, // Platform, TokenSecretRef, Broker, AllowedNamespaces
		reflect.TypeFor[akv1.SecretKeyRef]():       2, // compared with ==
	} {
		if typ.NumField() != compared {
			t.Errorf("%s has %d fields, the comparison of kept checks knows %d", typ, typ.NumField(), compared)
		}
	}
}
