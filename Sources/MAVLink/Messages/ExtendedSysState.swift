/// EXTENDED_SYS_STATE (245): landed state (on ground, taking off, in air, landing).
public struct ExtendedSysState: MAVLinkMessage {
    public var vtolState: MAVLinkEnum<MAVVTOLState> = .init(.undefined)
    public var landedState: MAVLinkEnum<MAVLandedState> = .init(.undefined)

    public init() {}
    public static let layout = MAVLinkLayout<Self>(id: 245, crcExtra: 130, name: "EXTENDED_SYS_STATE")
    public static var fields: [MAVLinkField<Self>] {
        [.scalar("vtol_state", \.vtolState), .scalar("landed_state", \.landedState)]
    }
}
