# Sourced by scripts/demo.sh and scripts/footprint.sh: a simulated field on loopback.
#
#   field_begin MESSAGE
#
# makes the work directory `work` and an empty `pids` array, and traps: on exit every PID in `pids`
# is stopped (SIGTERM, then waited for) and `work` removed; on Ctrl-C/SIGTERM MESSAGE is printed and
# the script exits 130 (through the exit trap).
#
#   field_start BIN WORK SIM_ARGS...
#
# starts `followme sim` (a simulated AR.Drone 2.0 on the real UDP protocol, both receivers as NMEA
# over TCP) with SIM_ARGS, then a private gpsd (own port, loopback) reading both NMEA streams, and
# writes WORK/field.toml: the [gpsd], [target], [onboard] and [drone] tables pointing at them.
# Appends each PID to the caller's `pids` array (the caller stops them by PID on exit). Sets
# at_port, navdata_port, nmea_port, person_port and gpsd_port. FIELD_PROTOCOL=mavlink: the simulator
# is the MAVLink Copter (`--protocol mavlink`, any free UDP port, in mavlink_port) and field.toml
# flies it over MAVLink with the autopilot's own position (docs/mavlink.md §7–§8).
field_start() {
    local bin=$1 work=$2
    shift 2
    local protocol_args=()
    [ "${FIELD_PROTOCOL:-ardrone}" = mavlink ] && protocol_args=(--protocol mavlink --mavlink-port 0)
    "$bin" sim --at-port 0 --navdata-port 0 --nmea-port 0 --person-nmea-port 0 "${protocol_args[@]}" "$@" --json \
        >"$work/sim.out" 2>"$work/sim.err" &
    pids+=($!)
    for _ in $(seq 200); do [ -s "$work/sim.out" ] && break; sleep 0.1; done
    read -r at_port navdata_port nmea_port person_port < <(head -1 "$work/sim.out" | python3 -c \
        'import json,sys; d=json.load(sys.stdin); print(d["at_port"], d["navdata_port"], d["nmea_port"], d["person_nmea_port"])')
    mavlink_port=$(head -1 "$work/sim.out" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("mavlink_port", ""))')

    gpsd_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    local gpsd_cmd=(gpsd -N -n -S "$gpsd_port" -F "$work/gpsd.sock" "tcp://127.0.0.1:$person_port" "tcp://127.0.0.1:$nmea_port")
    # A root gpsd drops privileges and leaks a SysV SHM segment: run it as nobody (docs/gpsd.md §2.3).
    [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && gpsd_cmd=(setpriv --reuid=65534 --regid=65534 --clear-groups -- "${gpsd_cmd[@]}")
    chmod 777 "$work"
    TMPDIR="$work" GPSD_SHM_KEY=$(printf '0x4770%04X' "$gpsd_port") "${gpsd_cmd[@]}" >"$work/gpsd.log" 2>&1 &
    pids+=($!)

    cat >"$work/field.toml" <<TOML
# A simulated field on loopback (see etc/followme.toml for every key).
[gpsd]
host = "127.0.0.1"
port = $gpsd_port
[target]
device = "tcp://127.0.0.1:$person_port"
TOML
    if [ "${FIELD_PROTOCOL:-ardrone}" = mavlink ]; then
        # The Copter's own position replaces the onboard receiver; AR.Drone keys would only be warned about.
        printf '[drone]\nprotocol = "mavlink"\n[mavlink]\naddress = "127.0.0.1"\nport = %s\nposition_source = "autopilot"\n' \
            "$mavlink_port" >>"$work/field.toml"
    else
        printf '[onboard]\ndevice = "tcp://127.0.0.1:%s"\nmount_offset_deg = 90\n[drone]\naddress = "127.0.0.1"\nat_port = %s\nnavdata_port = %s\n' \
            "$nmea_port" "$at_port" "$navdata_port" >>"$work/field.toml"
    fi
}

field_begin() {
    work=$(mktemp -d)
    chmod 755 "$work"
    pids=()
    trap field_cleanup EXIT
    # shellcheck disable=SC2064  # the message is fixed now, on purpose
    trap "echo >&2; echo \"$1\" >&2; exit 130" INT TERM
}

field_cleanup() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
