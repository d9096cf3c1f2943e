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

# build DIR LDFLAGS NAME=PACKAGE... builds the commands into a temporary
# directory, then moves each into place under NAME, so an interrupted build
# never leaves a broken binary. Several packages in one go build share its
# compile work and keep both cores busy through each other's link.
build() {
	local dir="$1" ldflags="$2" start tmp spec
	shift 2
	local pkgs=()
	for spec in "$@"; do pkgs+=("${spec#*=}"); done
	start=$(date +%s)
	tmp="$(mktemp -d "${bin}/.build.XXXXXX")"
	log "building ${pkgs[*]} (this takes a while on a cold cache)"
	if ! (cd "${dir}" && go build -trimpath -ldflags "${ldflags}" -o "${tmp}/" "${pkgs[@]}"); then
		rm -rf "${tmp}"
		return 1
	fi
	for spec in "$@"; do
		# go build names a command after its path's last element, a
		# major-version suffix (/v3) aside.
		local pkg="${spec#*=}"
		pkg="${pkg%/v[0-9]*}"
		mv -f "${tmp}/${pkg##*/}" "${bin}/${spec%%=*}"
	done
	rm -rf "${tmp}"
	log "built ${pkgs[*]} in $(($(date +%s) - start)) s"
}

have() { # have NAME EXPECTED-SUBSTRING VERSION-ARGS...
	local name="$1" want="$2" out
	shift 2
	[[ -x "${bin}/${name}" ]] || return 1
	out="$("${bin}/${name}" "$@" 2>/dev/null)" || return 1
	[[ "${out}" == *"${want}"* ]]
}

t0=$(date +%s)
# etcd builds beside the Kubernetes pair: it is small, and its compile fills
# the gaps of theirs.
etcd_pid=""
if ! have etcd "etcd Version: ${ETCD_VERSION#v}" --version; then
	build "${here}/tools/etcd" "-s -w" etcd=go.etcd.io/etcd/server/v3 &
	etcd_pid=$!
fi
if ! have kube-apiserver "Kubernetes ${K8S_VERSION}" --version ||
	! have kubectl "Client Version: ${K8S_VERSION}" version --client; then
	build "${here}/tools" "${k8s_ldflags}" \
		kube-apiserver=k8s.io/kubernetes/cmd/kube-apiserver kubectl=k8s.io/kubernetes/cmd/kubectl
fi
if [[ -n "${etcd_pid}" ]]; then
	wait "${etcd_pid}"
fi
log "binaries ready in ${bin} after $(($(date +%s) - t0)) s"

export CONDENGINE_E2E_ETCD="${bin}/etcd"
export CONDENGINE_E2E_KUBE_APISERVER="${bin}/kube-apiserver"
export CONDENGINE_E2E_KUBECTL="${bin}/kubectl"

cd "${here}"
t1=$(date +%s)
status=0
# -trimpath, like the builds above, and the same module versions in
# e2e/go.mod as in tools/go.mod, let the test binaries reuse the packages
# compiled for kube-apiserver (client-go, apiextensions, apiserver, …): on a
# cold cache that is most of their compile time.
go test -trimpath -count=1 -p 1 -timeout 20m "$@" ./... || status=$?
log "tests took $(($(date +%s) - t1)) s; total $(($(date +%s) - t0)) s"
exit "${status}"
