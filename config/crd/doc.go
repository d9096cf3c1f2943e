// Package crd embeds the CustomResourceDefinitions of every kind the
// engine reads and builds, from those or from any others, the type
// converter a server-side apply field manager needs.
//
// The YAML files beside this package are what hack/generate.sh derives
// from the markers in api/; FS carries them into any program that imports
// the module, so envtest and a test's fake client read the same schemas
// the API server enforces.
//
// TypeConverter is the one line a test needs for real server-side apply
// on the module's kinds, and TypeConverterFrom the same for a kind of
// your own, from the directory of its generated definitions. With
// controller-runtime's fake client:
//
//	tc, err := crd.TypeConverterFrom(os.DirFS("config/crd/bases"))
//	...
//	c := fake.NewClientBuilder().
//		WithScheme(scheme).
//		WithStatusSubresource(&examplev1.Database{}).
//		WithTypeConverters(tc, managedfields.NewDeducedTypeConverter()).
//		Build()
//
// Without it a field manager deduces the schema from the object, sees
// status.conditions as one atomic list, and a writer's apply takes every
// condition away from the other writers.
package crd
