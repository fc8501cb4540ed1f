#!/usr/bin/env python3
"""pymavlink as the ground station against `followme sim --protocol mavlink` (SimulatorMAVLinkTests).

Usage: sim_mavlink_gcs.py PORT

Talks MAVLink 2 to 127.0.0.1:PORT as system 255 / component 190: HEARTBEAT, ARM in STABILIZE
(expected refused), GUIDED, ARM, NAV_TAKEOFF 3 m, SET_MESSAGE_INTERVAL, velocity set-points in
LOCAL_NED and BODY_NED, silence (guided timeout), LAND. Prints one JSON object with what pymavlink
decoded at each step; the Swift test checks it. Never asserts itself (the Swift side does), exits 0
unless pymavlink or the socket fails.
"""
import json
import math
import os
import sys
import time

os.environ["MAVLINK20"] = "1"  # before importing pymavlink: frame MAVLink 2
from pymavlink import mavutil  # noqa: E402

PORT = int(sys.argv[1])
m = mavutil.mavlink_connection(f"udpout:127.0.0.1:{PORT}", source_system=255, source_component=190)
mav = m.mav
report = {"statustexts": [], "acks": {}, "steps": {}}
last = {}  # last message of each type


def pump(seconds, until=None):
    """Reads messages for up to `seconds` (heartbeat at 1 Hz); stops early when until(last) is true."""
    end = time.time() + seconds
    next_heartbeat = 0.0
    while time.time() < end:
        if time.time() >= next_heartbeat:
            mav.heartbeat_send(mavutil.mavlink.MAV_TYPE_GCS, mavutil.mavlink.MAV_AUTOPILOT_INVALID, 0, 0, 0)
            next_heartbeat = time.time() + 1
        msg = m.recv_match(blocking=True, timeout=0.05)
        if msg is None or msg.get_srcSystem() != 1:
            continue
        kind = msg.get_type()
        last[kind] = msg
        if kind == "STATUSTEXT":
            report["statustexts"].append(msg.text)
        if until is not None and until(last):
            return True
    return False


def command(name, command_id, *params):
    """COMMAND_LONG to system 1; records the COMMAND_ACK result pymavlink decoded (None = no ACK in 3 s)."""
    params = list(params) + [0.0] * (7 - len(params))
    last.pop("COMMAND_ACK", None)
    mav.command_long_send(1, 1, command_id, 0, *params)
    pump(3, until=lambda l: "COMMAND_ACK" in l and l["COMMAND_ACK"].command == command_id)
    ack = last.get("COMMAND_ACK")
    report["acks"][name] = ack.result if ack is not None and ack.command == command_id else None


def state():
    """What pymavlink decoded last: mode, armed, landed state, relative altitude, position, heading."""
    hb, pos, ext = last.get("HEARTBEAT"), last.get("GLOBAL_POSITION_INT"), last.get("EXTENDED_SYS_STATE")
    return {
        "custom_mode": hb.custom_mode if hb else None,
        "armed": bool(hb.base_mode & mavutil.mavlink.MAV_MODE_FLAG_SAFETY_ARMED) if hb else None,
        "system_status": hb.system_status if hb else None,
        "landed_state": ext.landed_state if ext else None,
        "relative_alt_m": pos.relative_alt / 1000 if pos else None,
        "lat": pos.lat / 1e7 if pos else None,
        "lon": pos.lon / 1e7 if pos else None,
        "vx_north": pos.vx / 100 if pos else None,
        "vy_east": pos.vy / 100 if pos else None,
        "hdg_deg": pos.hdg / 100 if pos else None,
    }


def moved(before, after):
    """Metres north and east between two states (small distances: flat earth)."""
    north = (after["lat"] - before["lat"]) * math.pi / 180 * 6371000
    east = (after["lon"] - before["lon"]) * math.pi / 180 * 6371000 * math.cos(before["lat"] * math.pi / 180)
    return {"north_m": north, "east_m": east}


def stream(frame, vx, vy, vz, seconds):
    """Velocity set-points (velocity + yaw rate mask, 0x05C7) at 10 Hz for `seconds`."""
    end = time.time() + seconds
    while time.time() < end:
        mav.set_position_target_local_ned_send(0, 1, 1, frame, 0x05C7, 0, 0, 0, vx, vy, vz, 0, 0, 0, 0, 0)
        pump(0.1)


# The vehicle answers our first HEARTBEAT.
ok = pump(5, until=lambda l: "HEARTBEAT" in l and "EXTENDED_SYS_STATE" in l and "GLOBAL_POSITION_INT" in l)
hb = last.get("HEARTBEAT")
report["heartbeat"] = None if hb is None else {
    "type": hb.type, "autopilot": hb.autopilot, "custom_mode": hb.custom_mode, "base_mode": hb.base_mode,
    "system_status": hb.system_status, "mavlink_version": hb.mavlink_version, "srcSystem": hb.get_srcSystem(),
    "srcComponent": hb.get_srcComponent(), "frame_version": 2 if hb.get_msgbuf()[0] == 0xFD else 1,
}
report["steps"]["start"] = state()

command("arm_in_stabilize", mavutil.mavlink.MAV_CMD_COMPONENT_ARM_DISARM, 1)
command("guided", mavutil.mavlink.MAV_CMD_DO_SET_MODE, mavutil.mavlink.MAV_MODE_FLAG_CUSTOM_MODE_ENABLED, 4)
command("arm", mavutil.mavlink.MAV_CMD_COMPONENT_ARM_DISARM, 1)
command("takeoff", mavutil.mavlink.MAV_CMD_NAV_TAKEOFF, 0, 0, 0, float("nan"), float("nan"), float("nan"), 3)
pump(12, until=lambda l: "EXTENDED_SYS_STATE" in l and l["EXTENDED_SYS_STATE"].landed_state == 2
     and l["GLOBAL_POSITION_INT"].relative_alt > 2800)
pump(0.6)
report["steps"]["airborne"] = state()

# GLOBAL_POSITION_INT at 10 Hz, counted over 2 s.
command("interval", mavutil.mavlink.MAV_CMD_SET_MESSAGE_INTERVAL, 33, 100000)
count = [0]
end = time.time() + 2
while time.time() < end:
    msg = m.recv_match(type="GLOBAL_POSITION_INT", blocking=True, timeout=0.2)
    if msg is not None:
        count[0] += 1
        last["GLOBAL_POSITION_INT"] = msg
report["global_position_rate_hz"] = count[0] / 2

# North at 2 m/s in LOCAL_NED (x = north), then 2 m/s forward in BODY_NED (the nose points east).
before = state()
stream(mavutil.mavlink.MAV_FRAME_LOCAL_NED, 2, 0, 0, 3)
report["steps"]["after_local_north"] = state()
report["local_north_moved"] = moved(before, report["steps"]["after_local_north"])
# Stop first: the Copter brakes as ArduCopter does (2.5 m/s², jerk-limited, docs/mavlink.md §8.4).
stream(mavutil.mavlink.MAV_FRAME_LOCAL_NED, 0, 0, 0, 2.5)
before = state()
stream(mavutil.mavlink.MAV_FRAME_BODY_NED, 2, 0, 0, 3)
report["steps"]["after_body_forward"] = state()
report["body_forward_moved"] = moved(before, report["steps"]["after_body_forward"])

# No set-points for 6.5 s: the guided timeout (3 s) stops it (braking from 2 m/s takes ~2.5 s).
pump(6.5)
report["steps"]["after_silence"] = state()

command("land", mavutil.mavlink.MAV_CMD_DO_SET_MODE, mavutil.mavlink.MAV_MODE_FLAG_CUSTOM_MODE_ENABLED, 9)
pump(2)
report["steps"]["landing"] = state()
pump(12, until=lambda l: "EXTENDED_SYS_STATE" in l and l["EXTENDED_SYS_STATE"].landed_state == 1
     and not (l["HEARTBEAT"].base_mode & mavutil.mavlink.MAV_MODE_FLAG_SAFETY_ARMED))
pump(1.1)
report["steps"]["landed"] = state()

print(json.dumps(report))
