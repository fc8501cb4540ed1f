#!/usr/bin/env bash
# The README's test command: installs what is missing, builds everything (the followme binary
# too: the CLI tests run it), and runs every test — unit tests and the integration tests that
# start real gpsd/gpsfake processes and real UDP sockets on loopback.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh
swift build --build-tests
swift test --skip-build "$@"
