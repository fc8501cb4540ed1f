#!/usr/bin/env bash
# The README's first command: installs what is missing, builds followme, starts two private
# gpsd replays on loopback (the person's puck and the drone's receiver, from bundled real logs)
# and shows both receivers live with `followme gps`. Every process it starts is stopped by PID,
# also on Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh
swift build -c release --product followme
bin=$(swift build -c release --show-bin-path)/followme

work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
target_port=$(free_port)
onboard_port=$(free_port)
fixtures=Tests/GPSClientTests/Fixtures
# gpsfake puts its control socket in TMPDIR; -n opens the device at once, -c paces the log.
TMPDIR=$work gpsfake -q -n -P "$target_port" -c 0.2 "$fixtures/haicom-305N.log" >"$work/target.log" 2>&1 &
pids+=($!)
TMPDIR=$work gpsfake -q -n -P "$onboard_port" -c 0.05 "$fixtures/hemi.log" >"$work/onboard.log" 2>&1 &
pids+=($!)

cat >"$work/demo.toml" <<TOML
# Demo: the person's puck replays haicom-305N.log (a walk), the drone's receiver hemi.log
# (a Hemisphere receiver with \$GPHDT heading) — two private gpsd replays on loopback.
[gpsd]
host = "127.0.0.1"
port = $target_port
[onboard]
port = $onboard_port
TOML
echo "followme demo: target gpsd 127.0.0.1:$target_port, onboard gpsd 127.0.0.1:$onboard_port (Ctrl-C to stop)"
"$bin" gps --config "$work/demo.toml" --timeout "${DEMO_SECONDS:-30}" || true
