// Package buildinfo says which build of condengine is running: the
// version, the commit it was built from and the Go that built it. Both
// commands print it as their version verb (`condengine version`,
// `kubectl condengine version`), so they read it in one place.
//
// It sits under cmd/internal so that the two commands share it, the
// plugin's module included (its import path lies under cmd/), while no
// host of the library can import it: it adds nothing to the library's
// surface.
//
// # Decisions
//
//   - The version comes from the Go toolchain's build information
//     (runtime/debug.ReadBuildInfo): the module's tag when the binary was
//     built with `go install module@version`, or from a tagged checkout;
//     a pseudo-version from an untagged one; "(devel)" when the build had
//     no version control at hand.
//   - A release build sets the version with the linker
//     (-X .../cmd/internal/buildinfo.version=vX.Y.Z; .goreleaser.yaml
//     does), which wins over the build information: the release builds
//     both binaries from the commit that tags the plugin, where the
//     toolchain alone would give the engine a pseudo-version.
//   - Every field of the JSON form is always present, empty when the
//     build did not record it, so a script reads a fixed set of keys.
package buildinfo
