#!/usr/bin/env bash
# The README's demo (docs/bench.md §1): the whole chain on any Linux box, on loopback.
#
#   followme sim  — a simulated AR.Drone 2.0 speaking the real UDP protocol (AT in, navdata out),
#                   serving the drone's onboard receiver and the person's receiver as NMEA over TCP
#   gpsd          — a private gpsd (own port, loopback) reading both NMEA streams
#   followme run  — the appliance: takes off, follows the person, lands on SIGTERM
#
# then prints a scored report (RMS standoff error, minimum separation) and the paths of the
# flight log, GPX, SVG and the HTML report page (`followme report`; open it in a browser), and, for the
# AR.Drone with ffmpeg installed, the report with the flight's video in it and, last, the MP4 beside it:
# the simulated camera (ffmpeg's testsrc, a frame counter) recorded from take-off to landing with
# `[video] record`, muxed by `followme video mux` (docs/video.md §5, §7).
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
# The AR.Drone's camera: 10 s of ffmpeg's testsrc (a frame counter), 1280x720 H.264, looped by the simulator.
video_args=()
if [ "${DEMO_PROTOCOL:-ardrone}" = ardrone ] && command -v ffmpeg >/dev/null; then
    ffmpeg -hide_banner -loglevel error -y -f lavfi -i testsrc=size=1280x720:rate=30 -t 10 -c:v libx264 \
        -preset ultrafast -g 30 -bf 0 -x264-params aud=1 -pix_fmt yuv420p -f h264 "$work/camera.h264" \
        && video_args=(--video "$work/camera.h264" --video-port 0 --live-video-port 0)
fi
FIELD_PROTOCOL="${DEMO_PROTOCOL:-ardrone}" field_start "$bin" "$work" "${person_args[@]}" "${video_args[@]}"
video_port=""
if [ ${#video_args[@]} -gt 0 ]; then
    video_port=$(grep -m1 '"video_port"' "$work/sim.err" | python3 -c 'import json,sys; print(json.load(sys.stdin)["video_port"])')
    rm -rf "$out/video"
fi
{
    cat "$work/field.toml"
    echo "[failsafe]"
    echo "# The recorded jog leaves a 100 m geofence within a minute; the simulated field is open."
    echo "geofence_m = 1000"
    if [ -n "$video_port" ]; then
        echo "[video]"
        echo "# The simulated camera, recorded from take-off to landing (docs/video.md)."
        echo "record = true"
        echo "port = $video_port"
        echo "directory = \"$out/video\""
    fi
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
# The flight's video, muxed after the flight (never in its stop path): followme video mux prints the MP4's path.
mp4=""
if [ -n "$video_port" ]; then
    raw=$(ls "$out/video"/*.h264 2>/dev/null | tail -1)
    if [ -n "$raw" ]; then mp4=$("$bin" video mux --directory "$out/video" "$raw" | tail -1); fi
fi
# The after-flight page (summary, plan view, the video with its thumbnails, time series); `followme report`
# prints its path and finds the recording from the flight log's notice lines.
report=$("$bin" report "$log" -o "$out/flight.html")
echo "flight log: $log"
echo "GPX:        $out/flight.gpx"
echo "SVG:        $out/flight.svg"
if [ -n "$mp4" ]; then
    echo "report:     $report (with the video: it links ${mp4#"$out/"} beside it)"
    echo "video:      $mp4"
else
    echo "report:     $report"
    if [ -n "$video_port" ]; then echo "video:      none recorded (see the flight log's notice lines)"; fi
fi
exit "$status"
