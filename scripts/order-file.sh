#!/usr/bin/env bash
# Writes Sources/followme/followme.order: the functions a flight executes, which the release link
# places together at the start of .text (lld --symbol-ordering-file, Package.swift), so a flight
# touches a few MiB of code instead of pages scattered over the whole 20 MiB (PERFORMANCE.md
# "Issue 25": peak RSS 25.6 → 18.3 MiB on the same objects, ordering alone).
#
# How: builds followme (release, --static-swift-stdlib, as installed) and flies it under valgrind's
# callgrind in the simulated field of scripts/footprint.sh — once on the AR.Drone, once on the
# MAVLink Copter — from start-up through take-off, FOLLOW_SECONDS of following and the landing on
# SIGTERM; every function callgrind saw that the binary defines goes into the file, sorted (a stable
# diff). Functions the flights did not run (failsafes, other subcommands) stay where the linker puts
# them: correct, only paged in when they run.
#
# Rerun after changes to the flight path; a stale list costs memory, never correctness (names that
# no longer exist are ignored by the linker). Environment: ORDER_SCRATCH (SwiftPM scratch path,
# default .build-order), FOLLOW_SECONDS (default 20).
set -euo pipefail
export LC_ALL=C  # one collation for sort and comm
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh
command -v valgrind >/dev/null || { echo "order-file: needs valgrind (apt install valgrind)" >&2; exit 2; }
scratch=${ORDER_SCRATCH:-.build-order}
follow_seconds=${FOLLOW_SECONDS:-20}
build_args=(-c release --static-swift-stdlib --scratch-path "$scratch")
swift build "${build_args[@]}" --product followme >/dev/null
swift build "${build_args[@]}" --product followme-tools >/dev/null
bin_dir=$(swift build "${build_args[@]}" --show-bin-path)
out=Sources/followme/followme.order

. scripts/lib/field.sh
field_begin "order-file: interrupted"
# valgrind 3.19 cannot read this toolchain's DWARF: profile a copy without debug info (same code, same
# symbol names), with followme-tools beside it for `followme sim`.
strip --strip-debug -o "$work/followme" "$bin_dir/followme"
ln -s "$bin_dir/followme-tools" "$work/followme-tools"

fly() {  # fly PROTOCOL: one flight under callgrind, its profile in $work/PROTOCOL.callgrind
    local protocol=$1
    rm -f "$work/sim.out" "$work/sim.err" "$work/gpsd.sock" "$work/run.err"
    FIELD_PROTOCOL=$protocol field_start "$work/followme" "$work" --person straight-walk --person-start airborne
    valgrind --tool=callgrind --demangle=no --dump-instr=no --callgrind-out-file="$work/$protocol.callgrind" \
        "$work/followme" run --config "$work/field.toml" --log-level notice >"$work/run.out" 2>"$work/run.err" &
    local run_pid=$!
    pids+=($run_pid)
    local deadline=$((SECONDS + 300))
    until grep -q 'to=following' "$work/run.err"; do
        kill -0 "$run_pid" 2>/dev/null || { echo "order-file: followme run exited early:" >&2; tail -20 "$work/run.err" >&2; exit 1; }
        [ $SECONDS -lt $deadline ] || { echo "order-file: never started following" >&2; tail -20 "$work/run.err" >&2; exit 1; }
        sleep 0.5
    done
    sleep "$follow_seconds"
    kill -TERM "$run_pid"
    wait "$run_pid" || { echo "order-file: followme run did not land and exit 0 on SIGTERM" >&2; exit 1; }
    grep -q 'to=landed' "$work/run.err" || { echo "order-file: no landing in the $protocol flight" >&2; exit 1; }
    # The field's own processes (sim, gpsd) are stopped before the next flight.
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    pids=()
}
fly ardrone
fly mavlink

# callgrind names each function once, as fn=(ID) NAME or cfn=(ID) NAME; keep the binary's own.
nm --defined-only "$work/followme" | awk '$2 ~ /^[tTwW]$/ { print $3 }' | sort -u >"$work/defined"
sed -nE 's/^c?fn=\([0-9]+\) (.*)$/\1/p' "$work"/*.callgrind | sort -u | comm -12 - "$work/defined" >"$out"
echo "order-file: $(wc -l <"$out") functions → $out" >&2
# SwiftPM does not see the list as an input of the link: touch a source of the followme module so that
# every scratch path (.build-deb, .build-perf-static, …) relinks with it at its next release build.
touch Sources/followme/FollowMeCommand.swift
