#!/usr/bin/env bash
# Footprint of `followme run` (release build) in a simulated flight, for PERFORMANCE.md:
#
#   followme sim   — simulated AR.Drone 2.0 (real UDP protocol) + both receivers as NMEA over TCP,
#                    the person walking straight (--person straight-walk) once the drone is up
#   gpsd           — a private gpsd (own port, loopback) reading both NMEA streams
#   followme run   — the appliance, measured: takes off, follows for FOOTPRINT_SECONDS, lands on SIGTERM
#
# Same recipe as Tests/followmeTests/CLI/RunEndToEndTests.swift (SimulatedField) and scripts/demo.sh.
# Reports, for `followme run` only:
#   peak RSS   VmHWM from /proc/PID/status just before SIGTERM
#   CPU %      (utime + stime) / wall time from /proc/PID/stat: over the following window, and
#              over the whole life of the process up to SIGTERM (start-up and take-off included)
#   latency    the `--latency-report` line it prints at exit (fix leaving gps_read → AT datagram sent)
#   size       the release binary, unstripped and stripped (`strip -o`), and the Swift shared
#              libraries it loads (they are not in the binary)
# Every process it starts is stopped by its PID, also on Ctrl-C.
#
# Environment: FOOTPRINT_SECONDS (default 60), FOOTPRINT_SCRATCH (SwiftPM scratch path, default
# .build-perf), FOOTPRINT_STATIC=1 to build with --static-swift-stdlib like scripts/build-deb.sh (use
# another scratch path, e.g. .build-perf-static), FOOTPRINT_FLIGHT_LOG=1 to also write a JSONL flight
# log (default: none, like the shipped etc/followme.toml), FOOTPRINT_PERF=FILE to record a `perf`
# profile of followme run over the measured window.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh
scratch=${FOOTPRINT_SCRATCH:-.build-perf}
follow_seconds=${FOOTPRINT_SECONDS:-60}
build_args=(-c release --scratch-path "$scratch")
[ "${FOOTPRINT_STATIC:-0}" = 1 ] && build_args+=(--static-swift-stdlib)
echo "footprint: building followme (${build_args[*]})…" >&2
swift build "${build_args[@]}" --product followme >/dev/null
swift build "${build_args[@]}" --product followme-tools >/dev/null  # followme sim
bin=$(swift build "${build_args[@]}" --show-bin-path)/followme

. scripts/lib/field.sh
field_begin "footprint: interrupted"

field_start "$bin" "$work" --person straight-walk --person-start airborne
cp "$work/field.toml" "$work/footprint.toml"

run_args=(run --config "$work/footprint.toml" --log-level notice --latency-report)
[ "${FOOTPRINT_FLIGHT_LOG:-0}" = 1 ] && run_args+=(--flight-log "$work/flight.jsonl")
"$bin" "${run_args[@]}" >"$work/run.out" 2>"$work/run.err" &
run_pid=$!
pids+=($run_pid)

ticks=$(getconf CLK_TCK)
# utime + stime of run_pid in seconds (fields 14 and 15 of /proc/PID/stat; the name in field 2 has no spaces).
cpu_seconds() { awk -v hz="$ticks" '{ printf "%.3f", ($14 + $15) / hz }' "/proc/$run_pid/stat"; }
start_seconds() { awk -v hz="$ticks" '{ printf "%.3f", $22 / hz }' "/proc/$run_pid/stat"; }
uptime_seconds() { awk '{ print $1 }' /proc/uptime; }

deadline=$((SECONDS + 120))
until grep -q 'to=following' "$work/run.err"; do
    kill -0 "$run_pid" 2>/dev/null || { echo "footprint: followme run exited early:" >&2; tail -20 "$work/run.err" >&2; exit 1; }
    [ $SECONDS -lt $deadline ] || { echo "footprint: never started following" >&2; tail -20 "$work/run.err" >&2; exit 1; }
    sleep 0.2
done
cpu0=$(cpu_seconds); t0=$(uptime_seconds)
echo "footprint: following; measuring for $follow_seconds s…" >&2
if [ -n "${FOOTPRINT_PERF:-}" ]; then
    perf record -g -p "$run_pid" -o "$FOOTPRINT_PERF" -- sleep "$follow_seconds" >/dev/null 2>&1
else
    sleep "$follow_seconds"
fi
cpu1=$(cpu_seconds); t1=$(uptime_seconds)
hwm_kb=$(awk '/^VmHWM:/ { print $2 }' "/proc/$run_pid/status")
rss_kb=$(awk '/^VmRSS:/ { print $2 }' "/proc/$run_pid/status")
threads=$(awk '/^Threads:/ { print $2 }' "/proc/$run_pid/status")
anon_kb=$(awk '/^Anonymous:/ { print $2 }' "/proc/$run_pid/smaps_rollup")
# Private_Dirty: pages only this process has written (heap, stacks, relocated data) — what it costs
# the board's RAM beyond clean file pages the kernel can drop and re-read.
dirty_kb=$(awk '/^Private_Dirty:/ { print $2 }' "/proc/$run_pid/smaps_rollup")
# Resident kB per mapped file (and [heap]/[stack]/anonymous), largest first: where the RSS is.
awk '/^[0-9a-f]+-[0-9a-f]+ / { name = (NF >= 6 ? $6 : "[anonymous]") } /^Rss:/ { rss[name] += $2 }
     END { for (n in rss) if (rss[n] > 0) printf "%d %s\n", rss[n], n }' "/proc/$run_pid/smaps" | sort -rn | head -12 >"$work/smaps.txt"
life=$(python3 -c "print(f'{$t1 - $(start_seconds):.1f}')")
still_following=$(grep -c 'to=' "$work/run.err" || true)

kill -TERM "$run_pid"
status=0
wait "$run_pid" || status=$?

stripped="$work/followme.stripped"
strip -o "$stripped" "$bin"
swift_libs_kb=$(ldd "$bin" | awk '/swift|Foundation|dispatch|BlocksRuntime/ { print $3 }' | xargs -r du -kL | awk '{ s += $1 } END { print s + 0 }')

python3 - "$cpu0" "$cpu1" "$t0" "$t1" "$life" <<'PY' >"$work/cpu.txt"
import sys
cpu0, cpu1, t0, t1, life = map(float, sys.argv[1:])
print(f"{100 * (cpu1 - cpu0) / (t1 - t0):.2f} {t1 - t0:.1f} {100 * cpu1 / life:.2f} {life:.1f}")
PY
read -r cpu_follow window cpu_life life_s <"$work/cpu.txt"

echo "followme run footprint ($(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), load $(cut -d' ' -f1-3 /proc/loadavg))"
echo "  peak RSS (VmHWM):        $((hwm_kb / 1024)) MiB ($hwm_kb kB); RSS at the end $((rss_kb / 1024)) MiB, of it anonymous (heap, stacks) $((anon_kb / 1024)) MiB, the rest mapped files (code, libraries); private dirty $((dirty_kb / 1024)) MiB ($dirty_kb kB); threads $threads"
echo "  CPU while following:     $cpu_follow % of one core over $window s"
echo "  CPU over the whole run:  $cpu_life % of one core over $life_s s (start-up and take-off included)"
echo "  $(grep -h 'fix-to-datagram latency' "$work/run.out" || echo 'fix-to-datagram latency: (not printed)')"
echo "  binary:                  $(($(stat -c %s "$bin") / 1024)) KiB, stripped $(($(stat -c %s "$stripped") / 1024)) KiB; Swift shared libraries it loads: $((swift_libs_kb / 1024)) MiB"
echo "  resident by mapping (kB):"
sed 's/^/      /' "$work/smaps.txt"
echo "  state changes logged:    $still_following; followme run exited $status"
exit "$status"
