#!/usr/bin/env bash
# The README's test command: installs what is missing, builds everything (the followme binary
# too: the CLI and fault tests run it), and runs every test.
#
# Two `swift test` passes, because the machine may have as little as 2 cores: the pure unit tests
# run in parallel; the integration tests (real gpsd/gpsfake processes, the simulator, UDP on loopback,
# the followme binary) run one test at a time so their real-time loops are not starved by each
# other. Extra arguments go to both `swift test` runs. Beside the integration pass, at the lowest CPU
# priority: the package test (scripts/test-deb.sh: a static release build, debootstrap, dpkg in a
# chroot) and the fuzzing — the integration pass mostly waits on real time, so they use its idle
# CPU (a CI run is ≈ 15 min shorter than one after the other), and a nice-19 build cannot starve it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh --test
swift build --build-tests
# swift-argument-parser's man page writer, next to followme: the staged-install test installs the man page with it.
swift build --product generate-manual
# The integration tests, as the pattern `swift test --filter`/`--skip` matches against each test's
# identifier (`Target.Suite/test()/File.swift:line:column`): every test of the two targets that only
# hold integration tests (LinksTests: gpsd, gpsfake, the UDP links; followmeTests: the built
# executables), and, in the targets that also hold pure tests, the suites that start processes,
# servers or sockets, by type name. A new suite of that kind in one of these four targets goes into
# its line here (docs/architecture.md §1.1); any other test runs in the parallel pass.
integration_targets='LinksTests|followmeTests'
integration_suites=(
    'CockpitTests\.(CockpitServerTests|CockpitServerLoadTests|CockpitScreenshotTests|CockpitLayoutTests|CockpitPairingPageTests)'
    'FlightRecordsTests\.(VideoMuxIntegrationTests|ReportVideoIntegrationTests|FlightLogRecordTests|FlightLogRetentionTests|FlightLogToolsTests|FlightStatusScreenTests|FlightTimelineAdapterTests|GeoJSONExportTests|WindLogTests|BenchReplaysTests)'
    'FlightServiceTests\.(FlightLoopFinalStatusTests|FlightLoopFlightTests|FlightLoopLinkEventTests|FlightLoopReleasedTests|FlightLoopStatusTests|LinkStatisticsRecordTests|PersonAltitudeSpikeLogTests|StatusPublisherTests|StatusSocketCommandTests|TransitionLogLevelTests|WindStatusTests)'
    'SimulationTests\.(SimulatedVideoServerTests|SimulatedDroneProtocolTests|SimulatorControlPilotTests|SimulatorDroneLinkTests|SimulatorFaultInjectionTests|SimulatorGPSDTests|SimulatorMAVLinkCameraTests|SimulatorMAVLinkLinkTests|SimulatorMAVLinkTests|SimulatorServerTests|WindSimulatorTests)'
)
integration="^($integration_targets)\\.|^($(IFS='|'; echo "${integration_suites[*]}"))(/|\$)"
# Both passes always run; each one's output is kept in .build/test-logs/, and the failures of both are
# printed again at the very end, where a CI log that keeps only its tail still shows which test failed.
logs=.build/test-logs
mkdir -p "$logs"
failed=()
run_pass() {
    local name=$1; shift
    if ! swift test --skip-build "$@" 2>&1 | tee "$logs/$name.log"; then failed+=("$name"); fi
}
run_pass unit --skip "$integration" "$@"
# The Debian package (docs/packaging.md §4): its own step, not a `swift test` pass — it needs the static
# release build and the Debian mirror (debootstrap), which no unit or integration test needs.
# FOLLOWME_DEB_TEST=0 skips it.
package_pid=
if [[ "${FOLLOWME_DEB_TEST:-1}" != 0 ]]; then
    # Bounded: a stalled mirror must fail the run, not hold CI (≈ 5 min unloaded, 20 min beside the tests).
    timeout 2700 nice -n 19 scripts/test-deb.sh >"$logs/package.log" 2>&1 &
    package_pid=$!
fi
# Coverage-guided fuzzing (docs/fuzzing.md): by default the reproducible CI run (`fuzz.sh --ci`: seed 1,
# a fixed number of executions per target, ~20 s each); FOLLOWME_FUZZ_SECONDS=N explores for N seconds
# per target instead, FOLLOWME_FUZZ_SECONDS=0 skips. Exit 3 = this toolchain cannot build libFuzzer
# targets: skipped.
fuzz_budget=(--ci)
[[ -n "${FOLLOWME_FUZZ_SECONDS:-}" ]] && fuzz_budget=(--seconds "$FOLLOWME_FUZZ_SECONDS")
fuzz_pid=
if [[ "${FOLLOWME_FUZZ_SECONDS:-}" != 0 ]]; then
    (timeout 2700 nice -n 19 scripts/fuzz.sh "${fuzz_budget[@]}" || [[ $? -eq 3 ]]) >"$logs/fuzz.log" 2>&1 &
    fuzz_pid=$!
fi
run_pass integration --no-parallel --filter "$integration" "$@"
for job in package fuzz; do
    pid_var=${job}_pid
    [[ -n "${!pid_var}" ]] || continue
    if wait "${!pid_var}"; then status=passed; else status=FAILED; failed+=("$job"); fi
    echo "=== $job ($logs/$job.log): $status"
    tail -n 25 "$logs/$job.log"
done
if (( ${#failed[@]} > 0 )); then
    for name in "${failed[@]}"; do
        echo "=== $name tests failed ($logs/$name.log); the failures:"
        grep -E '✘|recorded an issue|error:|Fatal error|Assertion failed|FAILED:' "$logs/$name.log" | cut -c1-600 | head -80 || true
    done
    exit 1
fi
