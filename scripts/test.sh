#!/usr/bin/env bash
# The README's test command: installs what is missing, builds everything (the followme binary
# too: the CLI and fault tests run it), and runs every test.
#
# Two passes, because the machine may have as little as 2 cores: the pure unit tests run in
# parallel; the integration tests (real gpsd/gpsfake processes, the simulator, UDP on loopback,
# the followme binary) run one test at a time so their real-time loops are not starved by each
# other. Extra arguments go to both `swift test` runs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh --test
swift build --build-tests
# swift-argument-parser's man page writer, next to followme: the staged-install test installs the man page with it.
swift build --product generate-manual
integration='GPSClientTests|DroneLinkTests|SimulatorServerTests|FlightServiceTests|FlightLogTests|TrackFilesTests|ShellSupportTests|CLITests|FaultInjectionTests'
swift test --skip-build --skip "$integration" "$@"
swift test --skip-build --no-parallel --filter "$integration" "$@"
# Coverage-guided fuzzing (docs/fuzzing.md) at the lowest CPU priority: by default the reproducible CI
# run (`fuzz.sh --ci`: seed 1, a fixed number of executions per target, ~20 s each); FOLLOWME_FUZZ_SECONDS=N
# explores for N seconds per target instead, FOLLOWME_FUZZ_SECONDS=0 skips. Exit 3 = this toolchain
# cannot build libFuzzer targets: skipped.
fuzz_budget=(--ci)
[[ -n "${FOLLOWME_FUZZ_SECONDS:-}" ]] && fuzz_budget=(--seconds "$FOLLOWME_FUZZ_SECONDS")
if [[ "${FOLLOWME_FUZZ_SECONDS:-}" != 0 ]]; then
    nice -n 19 scripts/fuzz.sh "${fuzz_budget[@]}" || [[ $? -eq 3 ]]
fi
