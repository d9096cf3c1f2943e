#!/usr/bin/env bash
# Checks the release configuration (.goreleaser.yaml) and the krew plugin
# manifest it writes, publishing nothing:
#
#  1. goreleaser check: the configuration is valid for the pinned
#     GoReleaser (tools/go.mod).
#  2. A snapshot release of one target, this machine's platform: both
#     commands build with the release's flags, are archived and
#     checksummed, and the krew manifest is written from the plugin's
#     archive. The configuration's two platform lines are narrowed to
#     that target in a copy; the six targets of a release cost six
#     cross-builds of each command, which the release alone pays.
#  3. Both binaries report the snapshot's version (so the linker flag
#     reaches cmd/internal/buildinfo) and, in a clone whose .git is a
#     directory, the commit they were built from.
#  4. krew's own validator (validate-krew-manifest, pinned in
#     tools/go.mod) accepts the manifest; its sha256 is the archive's and
#     the archive holds the binary the manifest names. The validator's
#     install step is skipped: it downloads the archive from the release.
#
# Output goes to dist/ (ignored by git), which this removes first.
# Usage: bash hack/release-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."

tool() { go tool -modfile=tools/go.mod "$@"; }
fail() {
  echo "release-check: $*" >&2
  exit 1
}

tool goreleaser check -f .goreleaser.yaml

goos=$(go env GOOS)
goarch=$(go env GOARCH)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
one="$work/one-target.yaml"
sed -e "s/^\( *goos: &goos\) \[.*\]\$/\1 [$goos]/" \
  -e "s/^\( *goarch: &goarch\) \[.*\]\$/\1 [$goarch]/" .goreleaser.yaml >"$one"
if [ "$(diff .goreleaser.yaml "$one" | grep -c '^>')" != 2 ]; then
  fail ".goreleaser.yaml no longer has one 'goos: &goos [...]' and one 'goarch: &goarch [...]' line; update this script"
fi
tool goreleaser release --snapshot --clean -f "$one"

# metadata.json is one line of JSON; its "version" is the snapshot's.
version=v$(sed -n 's/.*"version":"\([^"]*\)".*/\1/p' dist/metadata.json)
[ "$version" != v ] || fail "dist/metadata.json has no version"
head=$(git rev-parse HEAD)
for cmd in condengine kubectl-condengine; do
  bin=$(ls dist/"${cmd}"_"${goos}"_"${goarch}"*/"$cmd"*)
  out=$("$bin" version -o json)
  grep -qxF "  \"version\": \"$version\"," <<<"$out" ||
    fail "$cmd version reports other than $version:"$'\n'"$out"
  # The toolchain finds the commit only where .git is a directory (a
  # clone, as in CI); a git worktree's .git is a file it does not follow.
  if [ -d .git ]; then
    grep -qxF "  \"revision\": \"$head\"," <<<"$out" ||
      fail "$cmd version reports another revision than $head:"$'\n'"$out"
  fi
  echo "release-check: $cmd version: $version"
done

manifest=dist/krew/condengine.yaml
tool validate-krew-manifest -manifest "$manifest" -skip-install
field() { sed -n "s/^ *- *$1: //p; s/^ *$1: //p" "$manifest"; }
uri=$(field uri)
sum=$(field sha256)
bin=$(field bin)
[ "$(wc -l <<<"$uri")" = 1 ] || fail "$manifest: want one platform, got:"$'\n'"$uri"
archive=dist/${uri##*/}
[ -f "$archive" ] || fail "$manifest names $uri; dist/ has no ${uri##*/}"
[ "$(sha256sum "$archive" | cut -d' ' -f1)" = "$sum" ] ||
  fail "$manifest: sha256 $sum is not that of $archive"
case "$archive" in
  *.zip) listing=$(unzip -Z1 "$archive") ;;
  *) listing=$(tar -tzf "$archive") ;;
esac
grep -qxF "$bin" <<<"$listing" || fail "$archive holds no $bin:"$'\n'"$listing"
echo "release-check: $manifest passes krew's validation; $archive holds $bin"
