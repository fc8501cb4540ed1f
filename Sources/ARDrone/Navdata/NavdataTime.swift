/// The time option (tag 1, 8 bytes): drone time since boot in the packed TSECDEC format.
///
/// `navdata_time_t` (`navdata_common.h`): one uint32.
public struct NavdataTime: Sendable, Equatable {
    /// Option header 4 + uint32 time.
    public static let minimumByteCount = 8

    /// Drone time since boot.
    public var time: NavdataTimestamp
    /// Bytes after the known layout (options may be extended at the end, `navdata_common.h`);
    /// normally empty.
    public var extensionBytes: [UInt8] = []

    public init(time: NavdataTimestamp, extensionBytes: [UInt8] = []) {
        self.time = time
        self.extensionBytes = extensionBytes
    }
}
