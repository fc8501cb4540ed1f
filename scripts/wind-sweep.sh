#!/usr/bin/env bash
# The wind sweep behind docs/stopping-model.md §6: for each plant, tilt limit, wind speed and gust
# setting, runs `followme bench --extra-scenarios` (standard + extra scenarios × both GPS models,
# FollowMe only) and prints how many runs landed for the wind, how many came inside
# min_separation_m, and the closest approach. Extra arguments go to every bench run, e.g.
#   scripts/wind-sweep.sh --no-wind-bit
# Uses the debug build (`swift build` first: followme and followme-tools); ≈ 3 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/debug/followme
for plant in nominal off-model; do for tilt in 12 20; do for wind in 2 3 4 5 6 8; do for gusts in "" "--gusts"; do
    "$bin" bench --no-replays --controller followme --plant "$plant" --tilt-max-deg "$tilt" --wind-mps "$wind" $gusts \
        --extra-scenarios --json "$@" 2>/dev/null | python3 -c '
import json, sys
label = sys.argv[1]
runs = json.load(sys.stdin)["runs"]
worst = min(runs, key=lambda r: r["min_separation_m"])
landed = sum(1 for r in runs if any("wind-too-strong" in k for k in r["state_seconds"]))
inside = sum(1 for r in runs if r["below_min_separation_s"] > 0)
closest, name, noise, inside_s = (worst[k] for k in ("min_separation_m", "scenario", "noise", "below_min_separation_s"))
print(f"{label}: runs {len(runs)} wind-landed {landed} inside-min-sep {inside} "
      f"closest {closest:.2f} m ({name}/{noise}, {inside_s:.1f} s)")
' "$plant tilt $tilt wind $wind ${gusts:-steady}"
done; done; done; done
