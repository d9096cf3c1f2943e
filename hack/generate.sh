#!/usr/bin/env bash
# Regenerates what controller-gen derives from the kubebuilder markers in
# api/: the deepcopy functions (api/*/v1alpha1/zz_generated.deepcopy.go)
# and the CustomResourceDefinitions (config/crd/<group>_<plural>.yaml).
# controller-gen is built from tools/go.mod, the one place its version is
# pinned, so a fresh machine needs nothing but Go and the module proxy.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -C tools -o "$bin/controller-gen" sigs.k8s.io/controller-tools/cmd/controller-gen

"$bin/controller-gen" object paths=./api/...
"$bin/controller-gen" crd paths=./api/... output:crd:artifacts:config=config/crd
