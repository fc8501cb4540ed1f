/// What to check when a drone link hears nothing from the drone: the words logged
/// while `followme run` waits for the first navdata or HEARTBEAT, and printed by `followme drone`
/// when it gives up, so the person in the field sees the fix beside the symptom. Text only, like
/// `GPSDHint`. Plain values only (the fuzz build compiles Links/Support without the links): each link's
/// configuration has its own overload beside it.
public enum LinkHint {
    /// No navdata from the AR.Drone at `address` (AT commands to `atPort`, navdata from `navdataPort`).
    public static func noNavdata(address: String, atPort: Int, navdataPort: Int) -> String {
        "is this machine on the drone's Wi-Fi (SSID ardrone2_xxxx; `ip addr` shows a 192.168.1.x address on the "
            + "Wi-Fi interface)? does [drone] address/at_port/navdata_port (now \(address), \(atPort)/\(navdataPort)) "
            + "name the drone? is another program (FreeFlight on a phone) connected to it? the drone serves one "
            + "controller: close it, or power-cycle the drone"
    }

    /// No HEARTBEAT from a multirotor autopilot at `address:port`; FollowMe sends from `localPort` (0: any).
    public static func noHeartbeat(address: String, port: Int, localPort: Int) -> String {
        "does [mavlink] address/port (now \(address):\(port)) reach the autopilot or its router? does the autopilot "
            + "send MAVLink there (ArduPilot: SERIALn_PROTOCOL = 2 on that telemetry port; PX4: MAV_n_CONFIG on it; "
            + "SITL, mavproxy or mavlink-router: an `--out`/endpoint to this machine; one that sends to a fixed port "
            + "needs [mavlink] local_port = that port, now \(localPort))? is a firewall dropping UDP to this machine?"
    }
}
