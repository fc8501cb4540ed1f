#!/usr/bin/env python3
"""The trailing a fix's age forces on any drone that keeps within the stop-point cap (docs/stopping-model.md §3.1).

A drone that changes its velocity at once and always flies the fastest the cap allows, never closer than the
standoff, follows a jogger running straight away at V; the person's fixes come at RATE Hz, each delivered LAT s
after its epoch. No trajectory within the cap is ever ahead of this one (comparison principle for x' <= cap(t, x)),
so its RMS standoff error is a lower bound for any drone that keeps within the cap.

usage: trailing-bound.py [T_s a_mps2 vmax_mps]   (default: the AR.Drone at 12° and 20° cruise, 25° braking)
"""
import math
import sys

V = 3.0                 # the jogger, m/s
U = V - 0.3             # the receiver's speed less the 0.3 m/s it may overstate
A_PERSON = 4.0          # the hardest stop credited, m/s² (§2)
R = 3.0 + 4.0           # protected radius: min separation + GPS relative error, m
STANDOFF = 11.0


def bound(t_react, braking, lat, rate=1.0, vmax=math.inf, dt=0.0005, seconds=60.0, settle=20.0):
    credit = U * U / (2 * A_PERSON)
    x, t, errors = -STANDOFF, 0.0, []
    while t < seconds:
        person = V * t
        stop_point = V * math.floor((t - lat) * rate) / rate
        room = stop_point - x - R + credit
        cap = braking * (math.sqrt(t_react ** 2 + 2 * room / braking) - t_react) if room > 0 else 0.0
        velocity = max(min(V + 50 * ((person - STANDOFF) - x), cap, vmax), -5.0)
        x += velocity * dt
        t += dt
        if t > settle:
            errors.append(person - x - STANDOFF)
    return math.sqrt(sum(e * e for e in errors) / len(errors))


if __name__ == "__main__":
    # The AR.Drone's numbers (StoppingModel): braking 0.7·c1·c2·sin 25° = 3.00 m/s²; the braking reaction at 12° and
    # 20° cruise; the top speed c2·sin(cruise) (c1 = 0.58 /s, c2 = 17.5 m/s, docs/dynamics-and-follow.md §1.4).
    cases = [("12°", 0.54, 3.00, 17.5 * math.sin(math.radians(12))), ("20°", 0.60, 3.00, 17.5 * math.sin(math.radians(20)))]
    if len(sys.argv) == 4:
        cases = [("given", float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]))]
    for name, t_react, braking, vmax in cases:
        for rate in (1.0, 5.0):
            for lat in (0.0, 0.3):
                print(f"{name}: {rate:g} Hz, receiver {lat:g} s late: RMS ≥ {bound(t_react, braking, lat, rate, vmax):.2f} m")
