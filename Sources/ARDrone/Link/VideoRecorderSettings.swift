import ARDrone

/// What `[video]` asks of the AR.Drone's video recorder (docs/video.md §3): where to read, where to
/// write, and the limits it keeps.
public struct VideoRecorderSettings: Sendable, Equatable {
    /// Which of the drone's H.264 streams is recorded.
    public enum Stream: String, Sendable, Equatable, CaseIterable {
        /// The 720p recording stream on TCP 5553 (`video:video_codec` = MP4_360P_H264_720P_CODEC).
        case hd720 = "720p"
        /// The 360p live stream on TCP 5555 (`video:video_codec` = H264_360P_CODEC).
        case sd360 = "360p"

        /// The drone's TCP port for this stream (ARDroneLib `config.h`: VIDEO_RECORDER_PORT 5553, VIDEO_PORT 5555).
        public var defaultPort: Int { self == .hd720 ? 5553 : 5555 }

        /// `video:video_codec` as `AT*CONFIG` writes it: 0x82 (130) or 0x81 (129) (SDK `codec_type_t`).
        public var codecValue: Int { self == .hd720 ? 0x82 : 0x81 }

        /// The writes that select this stream and the front camera (`video:video_channel` 0 = ZAP_CHANNEL_HORI),
        /// sent and acknowledged like every start-up write.
        public var configurationWrites: [ConfigurationWrite] {
            [.videoCodec(codecValue), .videoChannel(0)]
        }
    }

    /// The drone's address (the link's `[drone] address`).
    public var host: String = "192.168.1.1"
    /// The TCP port read; default the stream's.
    public var port: Int = Stream.hd720.defaultPort
    public var stream: Stream = .hd720
    /// The recordings' own directory (`[video] directory`); created when the first recording starts.
    public var directory: String = "out/videos"
    /// At most this many bytes of recordings in `directory`, the current one included; the oldest are
    /// deleted first (each with a log line); 0 = no limit.
    public var maxTotalBytes: Int64 = 0
    /// Below this many free bytes on `directory`'s file system recording stops (and says so); 0 = no floor.
    public var minFreeBytes: Int64 = 0
    /// What the PaVE reader accepts (its caps bound the recorder's memory).
    public var readerLimits = PaVEReader.Limits()
    /// No byte in two periods of this long in a row on a connection: it is closed and opened again, seconds.
    public var stallSeconds: Double = 2
    /// The first wait before reconnecting, doubled after each failure up to `maxReconnectSeconds`.
    public var reconnectSeconds: Double = 0.25
    public var maxReconnectSeconds: Double = 4
    /// How often the free-space floor and the budget are checked while recording, seconds.
    public var spaceCheckSeconds: Double = 1

    public init() {}
}
