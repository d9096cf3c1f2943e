package writeplan

import (
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Kind is the kind a plan writes, as the caller declares it: what the
// object read does not say about itself. A host declares one per kind it
// writes, from its API package's constants; nothing in this package
// knows any kind.
//
//	writeplan.Kind{APIVersion: examplev1.APIVersion, Kind: "Database", Finalizer: examplev1.DatabaseFinalizer}
type Kind struct {
	// APIVersion is the kind's group/version as a manifest's apiVersion
	// reads ("example.com/v1"); every apply body carries it.
	APIVersion string
	// Kind is the kind's name ("Database"). A plan is only made for an
	// outcome of this kind.
	Kind string
	// Finalizer is the finalizer the host manages on the kind, "" for
	// none; an outcome that asks to add or remove a finalizer of a kind
	// without one is refused.
	Finalizer string
}

// ErrNoKind is returned (wrapped, naming the field) when Options.Kind
// lacks its APIVersion or its Kind.
var ErrNoKind = errors.New("writeplan: Options.Kind is incomplete")

// check reports the first field of k that is missing or unreadable.
func (k Kind) check() error {
	if k.APIVersion == "" {
		return fmt.Errorf("%w: APIVersion is empty (the group/version of the apply bodies, as in %q)", ErrNoKind, "example.com/v1")
	}
	if k.Kind == "" {
		return fmt.Errorf("%w: Kind is empty (the kind's name, as in %q)", ErrNoKind, "Database")
	}
	if _, err := schema.ParseGroupVersion(k.APIVersion); err != nil {
		return fmt.Errorf("writeplan: Options.Kind.APIVersion %q is not a group/version", k.APIVersion)
	}
	return nil
}
