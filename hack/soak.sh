#!/usr/bin/env bash
# Soak run: every rapid property of the root module with many more cases
# than CI gives it, then every fuzz target for a set time, one package
# after another, so that a property which fails once in thousands of
# cases fails here rather than in someone's `go test ./...`. CI keeps its
# own counts; this is run by hand (it takes hours on two cores):
#
#   bash hack/soak.sh                     # every package
#   bash hack/soak.sh ./binding ./redact  # only these packages
#   CHECKS=20000 FUZZTIME=10s bash hack/soak.sh
#
# CHECKS is -rapid.checks (default 100000), FUZZTIME each fuzz target's
# -fuzztime (default 60s); FUZZ=0 skips the fuzz targets and PROPS=0 the
# properties (to run the two halves at different times). Each
# property and target is reported PASS or FAIL on its own line; the
# script exits 1 when any failed, after running all of them.
#
# `bash hack/soak.sh hosts` soaks the host checks instead: every host the
# project ships or tests as correct (the README's quick start,
# examples/bindinghost, examples/finopshost, the two reference hosts, the
# Gadget host of a system adapted with FromSystem and the legal variant
# hosts) runs SEEDS schedules (default 1000) from seed FROM (default 1).
# A failing seed is reported with its shrunk counterexample's first lines
# and the soak goes on from the next seed; the script exits 1 when any
# seed failed.
#
#   SEEDS=300 bash hack/soak.sh hosts
#   FROM=301 SEEDS=700 bash hack/soak.sh hosts TestQuickstartUnderFaults
set -uo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = hosts ]; then
  shift
  seeds=${SEEDS:-1000}
  first=${FROM:-1}
  tests=("$@")
  if [ ${#tests[@]} -eq 0 ]; then
    tests=(TestQuickstartUnderFaults TestBindingHostUnderFaults TestFinOpsHostUnderFaults
      TestCorrectHostPasses TestCorrectFinOpsHostPasses TestFromSystem_CorrectHostPasses
      TestVariant_Polls2s TestVariant_IdlesEveryOtherPass TestVariant_OneBindingPerPass
      TestVariant_CoalescedRequeue TestVariant_FinOpsPolls2s)
  fi
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
  (cd hostcheck && go test -c -o "$dir/hostcheck.test") || exit 1
  failed=0
  for t in "${tests[@]}"; do
    from=$first
    end=$((first + seeds))
    fails=0
    while [ "$from" -lt "$end" ]; do
      if (cd hostcheck && "$dir/hostcheck.test" -test.run "^${t}\$" -test.timeout 0 \
        -hostcheck.from="$from" -hostcheck.schedules=$((end - from))) >"$dir/log" 2>&1; then
        break
      fi
      seed=$(grep -o '^ *seed [0-9]*; replay' "$dir/log" | head -1 | grep -o '[0-9]*')
      if [ -z "$seed" ]; then
        echo "FAIL $t (from seed $from: no counterexample)"
        tail -20 "$dir/log" | sed 's/^/    /'
        failed=1
        fails=$((fails + 1))
        break
      fi
      echo "FAIL $t seed $seed: $(grep -m1 'host breaks' "$dir/log" | sed 's/^ *//')"
      grep -A2 -m1 '^ *broken ' "$dir/log" | sed 's/^/    /'
      failed=1
      fails=$((fails + 1))
      from=$((seed + 1))
    done
    if [ "$fails" = 0 ]; then
      echo "PASS $t seeds $first-$((end - 1))"
    else
      echo "---- $t: $fails failing seed(s) in $first-$((end - 1))"
    fi
  done
  exit $failed
fi

checks=${CHECKS:-100000}
fuzztime=${FUZZTIME:-60s}
fuzz=${FUZZ:-1}
props_on=${PROPS:-1}
pkgs=("$@")
if [ ${#pkgs[@]} -eq 0 ]; then
  mapfile -t pkgs < <(go list -f '{{.Dir}}' ./... | sed "s|^$PWD|.|")
fi

failed=0
report() { # report NAME STATUS LOG
  printf '%s %s\n' "$2" "$1"
  if [ "$2" != PASS ]; then
    failed=1
    sed 's/^/    /' "$3" | tail -40
  fi
}

# properties PKG prints the test functions of PKG that run a rapid
# property, one per line; "." when a property sits outside a Test
# function (then every test of the package runs).
properties() {
  awk '
    /^func / { fn = ""; if (match($0, /^func (Test[A-Za-z0-9_]*)\(/)) { fn = substr($0, 6, RLENGTH - 6) } else { fn = "?" } }
    /rapid\.(Check|MakeCheck)\(/ { if (fn == "?") print "."; else if (fn != "") print fn }
  ' "$1"/*_test.go 2>/dev/null | sort -u
}

log=$(mktemp)
trap 'rm -f "$log"' EXIT
for pkg in "${pkgs[@]}"; do
  mapfile -t props < <(properties "$pkg")
  if [ "$props_on" != 0 ] && [ ${#props[@]} -gt 0 ]; then
    if printf '%s\n' "${props[@]}" | grep -qx '\.'; then
      run='.'
    else
      run="^($(IFS='|'; echo "${props[*]}"))\$"
    fi
    if go test -count=1 -timeout 0 -run "$run" "$pkg" -rapid.checks="$checks" >"$log" 2>&1; then
      report "$pkg properties (${#props[@]}, -rapid.checks=$checks)" PASS "$log"
    else
      report "$pkg properties (${#props[@]}, -rapid.checks=$checks)" FAIL "$log"
    fi
  fi
  [ "$fuzz" = 0 ] && continue
  for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$pkg"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
    if go test -count=1 -timeout 0 -run '^$' -fuzz "^$target\$" -fuzztime "$fuzztime" -fuzzminimizetime 10s "$pkg" >"$log" 2>&1; then
      report "$pkg $target (-fuzztime $fuzztime)" PASS "$log"
    else
      report "$pkg $target (-fuzztime $fuzztime)" FAIL "$log"
    fi
  done
done
exit $failed
