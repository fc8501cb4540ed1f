#!/usr/bin/env bash
# The README's demo (docs/bench.md §1): the whole chain on any Linux box, on loopback.
#
#   followme sim  — a simulated AR.Drone 2.0 speaking the real UDP protocol (AT in, navdata out),
#                   serving the drone's onboard receiver and the person's receiver as NMEA over TCP
#   gpsd          — a private gpsd (own port, loopback) reading both NMEA streams
#   followme run  — the appliance: takes off, follows the person, lands on SIGTERM
#
# then prints a scored report (RMS standoff error, minimum separation) and the paths of the
# flight log, GPX, SVG and, last, the HTML report page (`followme report`; open it in a browser).
# Every process it starts is stopped by its PID, also on Ctrl-C.
# DEMO_SECONDS (default 60) sets how long it follows before landing. DEMO_PROTOCOL=mavlink flies the
# simulator's MAVLink Copter (an ArduPilot-like multicopter) instead of the AR.Drone 2.0.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh
echo "followme demo: building (release)…" >&2
swift build -c release --product followme >/dev/null
swift build -c release --product followme-tools >/dev/null  # followme sim
bin=$(swift build -c release --show-bin-path)/followme

out=${DEMO_OUT:-out/demo}
mkdir -p "$out"
out=$(cd "$out" && pwd)
. scripts/lib/field.sh
field_begin "followme demo: interrupted, landing and stopping…"

# The person replays a real recorded jog (tracks/togeojson-run_gpxtpx.gpx, BSD-2-Clause, 1 s
# samples; provenance in tracks/PROVENANCE.md). DEMO_TRACK=… picks another GPX;
# DEMO_PERSON=straight-walk|square|stop-and-go|jog-curve a synthetic person instead.
if [ -n "${DEMO_PERSON:-}" ]; then person_args=(--person "$DEMO_PERSON"); else
    person_args=(--person-track "${DEMO_TRACK:-tracks/togeojson-run_gpxtpx.gpx}"); fi
FIELD_PROTOCOL="${DEMO_PROTOCOL:-ardrone}" field_start "$bin" "$work" "${person_args[@]}"
{
    cat "$work/field.toml"
    echo "[failsafe]"
    echo "# The recorded jog leaves a 100 m geofence within a minute; the simulated field is open."
    echo "geofence_m = 1000"
} >"$work/demo.toml"

log="$out/flight.jsonl"
rm -f "$log"
echo "followme demo (${DEMO_PROTOCOL:-ardrone}${mavlink_port:+ on UDP $mavlink_port}): sim AT/navdata 127.0.0.1:$at_port/$navdata_port, gpsd 127.0.0.1:$gpsd_port; flight log $log" >&2
"$bin" run --config "$work/demo.toml" --flight-log "$log" --log-level warning &
run_pid=$!
pids+=($run_pid)

# Follow for DEMO_SECONDS once following starts (or give up after 90 s of preflight).
deadline=$((SECONDS + 90))
until grep -q '"to":"following"' "$log" 2>/dev/null; do
    kill -0 "$run_pid" 2>/dev/null || { echo "followme run exited early" >&2; exit 1; }
    [ $SECONDS -lt $deadline ] || { echo "followme demo: never started following" >&2; exit 1; }
    sleep 0.5
done
sleep "${DEMO_SECONDS:-60}"
echo >&2
echo "followme demo: SIGTERM → landing…" >&2
kill -TERM "$run_pid"
status=0
wait "$run_pid" || status=$?
echo "followme demo: followme run exited $status" >&2

"$bin" log report "$log"
"$bin" log gpx "$log" -o "$out/flight.gpx"
"$bin" log plot "$log" -o "$out/flight.svg"
# The after-flight page (summary, plan view, time series); `followme report` prints its path.
report=$("$bin" report "$log" -o "$out/flight.html")
echo "flight log: $log"
echo "GPX:        $out/flight.gpx"
echo "SVG:        $out/flight.svg"
echo "report:     $report"
exit "$status"
