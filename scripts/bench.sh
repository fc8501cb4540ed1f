#!/usr/bin/env bash
# FollowMe's benchmarks (package-benchmark, the separate package in Performance/; PERFORMANCE.md):
# the 30 Hz control step, navdata decoding of the real captures, gpsd fix mapping — wall time and
# malloc counts per operation.
#
#   scripts/bench.sh                    run all benchmarks and print the table
#   scripts/bench.sh --check            run them and check Performance/Thresholds/*.p90.json: exit 1 if a
#                                       malloc count grew (zero tolerance) or the control step's p90
#                                       wall time exceeds 5 µs
#   scripts/bench.sh --filter 'navdata.*'    any other arguments go to `swift package benchmark`
#
# The first run builds package-benchmark and the main package in release mode (several minutes).
set -euo pipefail
cd "$(dirname "$0")/../Performance"
if [ "${1:-}" = "--check" ]; then
    shift
    exec swift package benchmark thresholds check "$@"
fi
exec swift package benchmark "$@"
