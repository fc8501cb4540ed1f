#!/usr/bin/env bash
# The extra scenarios' goal matrix (the goals G1–G4 of docs/bench.md §6). Usage: scripts/bench-goals.sh REPO_DIR OUT_DIR [PLOTS_DIR]
# then: python3 scripts/bench-summary.py OUT_DIR "title" > table.md. Needs a debug build of followme.
# Runs REPO_DIR/.build/debug/followme bench (FollowMe only, clean + realistic GPS, seed 1,
# shipped max tilt 20°) for each goal, nominal and off-model plant; writes one JSON
# per configuration into OUT_DIR and plots (jog, wind) into PLOTS_DIR if given.
set -euo pipefail
REPO=$1; OUT=$2; PLOTS=${3:-}
mkdir -p "$OUT"
cd "$REPO"
BIN=.build/debug/followme
COMMON=(bench --controller followme --tilt-max-deg 20 --json)
run() { # name, args...
  local name=$1; shift
  local plot=()
  if [[ -n "$PLOTS" && ( $name == jog* || $name == wind-* ) && $name != seeds-* ]]; then plot=(--plots "$PLOTS/$name"); fi
  echo "== $name: followme ${COMMON[*]} $* ${plot[*]}" >&2
  local seed=(--seed 1)
  [[ " $* " == *" --seed "* ]] && seed=()
  "$BIN" "${COMMON[@]}" "${seed[@]}" "$@" "${plot[@]}" > "$OUT/$name.json"
}
for plant in nominal off-model; do
  # G1: 3 m/s jog, standoff 8, protected radius 3.5 m (2 + 1.5), target 1/5/10 Hz, Doppler on/off at 1 Hz.
  JOGS=(--scenario jog-straight --scenario jog-s-curve --scenario jog-curve --scenario track-jog-sf)
  for hz in 1 5 10; do
    run "jog-$plant-${hz}hz" --plant $plant --standoff-m 8 --min-separation-m 2 --gps-relative-error-m 1.5 --target-rate-hz $hz "${JOGS[@]}"
  done
  # Realistic noise is one realisation per seed and fix rate (the receivers' error processes are
  # advanced at their own fix times), so compare rates on a mean over seeds 1-5.
  for hz in 1 5; do
    for seed in 2 3 4 5; do
      run "seeds-jog-$plant-${hz}hz-seed$seed" --plant $plant --standoff-m 8 --min-separation-m 2 --gps-relative-error-m 1.5 --target-rate-hz $hz --noise realistic --seed $seed "${JOGS[@]}"
    done
  done
  run "jog-$plant-1hz-nodoppler" --plant $plant --standoff-m 8 --min-separation-m 2 --gps-relative-error-m 1.5 --target-rate-hz 1 --no-doppler "${JOGS[@]}"
  # G2: shipped defaults (standoff 8, min_separation 3, gps_relative_error 4, default geofence), 5-min jog.
  for hz in 1 5; do
    run "jog5min-$plant-${hz}hz" --plant $plant --target-rate-hz $hz --scenario jog-5min-defaults
  done
  # G3: steady 5 m/s wind and gusts, shipped defaults, 5 Hz.
  run "wind-$plant" --plant $plant --scenario wind-stand --scenario wind-gust-stand --scenario wind-walk --scenario wind-gust-walk
  # G4: true minimum separation at the smallest accepted standoff (min_separation 2, gps_relative_error 1.5),
  # every synthetic scenario, 1 and 5 Hz; and with the shipped 3 / 4.
  for hz in 1 5; do
    run "sep-$plant-${hz}hz" --plant $plant --no-replays --extra-scenarios --smallest-standoff --min-separation-m 2 --gps-relative-error-m 1.5 --target-rate-hz $hz
    run "sepdefault-$plant-${hz}hz" --plant $plant --no-replays --extra-scenarios --smallest-standoff --target-rate-hz $hz
    # The promise at the edge of its premise: clean fixes, but every person fix exactly
    # gps_relative_error_m farther from the drone than the truth (the worst bounded relative error).
    run "sepworst-$plant-${hz}hz" --plant $plant --no-replays --extra-scenarios --smallest-standoff --min-separation-m 2 --gps-relative-error-m 1.5 --adversarial-offset-m 1.5 --noise clean --target-rate-hz $hz
    run "sepworstdefault-$plant-${hz}hz" --plant $plant --no-replays --extra-scenarios --smallest-standoff --adversarial-offset-m 4 --noise clean --target-rate-hz $hz
  done
done
