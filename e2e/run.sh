#!/usr/bin/env bash
# Runs condengine's end-to-end tests against a real etcd, kube-apiserver and
# kubectl. The three are built from source through the Go module proxy (no
# prebuilt binary is downloaded) into a cache that later runs on the same
# machine reuse; a cold build takes several minutes, a warm one nothing.
#
#   bash e2e/run.sh                 # build what is missing, run every e2e test
#   bash e2e/run.sh -run Kubectl -v # extra arguments go to `go test`
#   CONDENGINE_E2E_PERF=1 bash e2e/run.sh -run Perf -v   # the 1,000-Binding run
#
# Environment:
#   CONDENGINE_E2E_CACHE  cache root (default: $HOME/.cache/condengine-e2e)
#   CONDENGINE_E2E_KEEP   non-empty: keep the control plane's directory (logs)
#   CONDENGINE_E2E_PERF   non-empty: also run the performance test
set -euo pipefail

K8S_VERSION=v1.37.2
ETCD_VERSION=v3.6.16

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${CONDENGINE_E2E_CACHE:-${HOME}/.cache/condengine-e2e}"
bin="${cache}/bin"
mkdir -p "${bin}"

log() { printf 'e2e/run.sh: %s\n' "$*" >&2; }

# -trimpath keeps the builds independent of where the module cache lives; the
# version stamps make `--version` tell the truth, which is how this script
# decides whether a cached binary is the one it wants.
k8s_ldflags="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
	k8s_ldflags+=" -X ${pkg}.gitVersion=${K8S_VERSION}"
	k8s_ldflags+=" -X ${pkg}.gitMajor=$(cut -d. -f1 <<<"${K8S_VERSION#v}")"
	k8s_ldflags+=" -X ${pkg}.gitMinor=$(cut -d. -f2 <<<"${K8S_VERSION}")"
	k8s_ldflags+=" -X ${pkg}.gitTreeState=clean"
done

# build NAME MODULE_DIR PACKAGE LDFLAGS: go build into a temporary name, then
# move it into place, so an interrupted build never leaves a broken binary.
build() {
	local name="$1" dir="$2" pkg="$3" ldflags="$4" start
	start=$(date +%s)
	log "building ${name} from ${pkg} (this takes a while on a cold cache)"
	(cd "${dir}" && go build -trimpath -ldflags "${ldflags}" -o "${bin}/.${name}.tmp" "${pkg}")
	mv -f "${bin}/.${name}.tmp" "${bin}/${name}"
	log "built ${name} in $(($(date +%s) - start)) s"
}

have() { # have NAME EXPECTED-SUBSTRING VERSION-ARGS...
	local name="$1" want="$2" out
	shift 2
	[[ -x "${bin}/${name}" ]] || return 1
	out="$("${bin}/${name}" "$@" 2>/dev/null)" || return 1
	[[ "${out}" == *"${want}"* ]]
}

t0=$(date +%s)
have etcd "etcd Version: ${ETCD_VERSION#v}" --version ||
	build etcd "${here}/tools/etcd" go.etcd.io/etcd/server/v3 "-s -w"
have kube-apiserver "Kubernetes ${K8S_VERSION}" --version ||
	build kube-apiserver "${here}/tools" k8s.io/kubernetes/cmd/kube-apiserver "${k8s_ldflags}"
have kubectl "Client Version: ${K8S_VERSION}" version --client ||
	build kubectl "${here}/tools" k8s.io/kubernetes/cmd/kubectl "${k8s_ldflags}"
log "binaries ready in ${bin} after $(($(date +%s) - t0)) s"

export CONDENGINE_E2E_ETCD="${bin}/etcd"
export CONDENGINE_E2E_KUBE_APISERVER="${bin}/kube-apiserver"
export CONDENGINE_E2E_KUBECTL="${bin}/kubectl"

cd "${here}"
t1=$(date +%s)
status=0
go test -count=1 -p 1 -timeout 20m "$@" ./... || status=$?
log "tests took $(($(date +%s) - t1)) s; total $(($(date +%s) - t0)) s"
exit "${status}"
