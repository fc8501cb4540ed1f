/// The `AT*CONFIG` writes that choose the video streams (docs/video.md §2).
extension ConfigurationWrite {
    /// `video:video_codec = <codec>` (INI_INT; the SDK's `codec_type_t`): 0x81 (129) H264_360P_CODEC puts
    /// H.264 360p on the live port 5555; 0x82 (130) MP4_360P_H264_720P_CODEC puts MPEG-4 360p on 5555 and
    /// H.264 720p on the recording port 5553; 0x83 (131) H264_720P_CODEC puts H.264 720p on 5555.
    public static func videoCodec(_ codec: Int) -> ConfigurationWrite {
        ConfigurationWrite(key: "video:video_codec", value: ConfigurationValue.integer(codec))
    }

    /// `video:video_channel = <channel>` (INI_INT): 0 = the front camera (ZAP_CHANNEL_HORI), 1 = the bottom one.
    public static func videoChannel(_ channel: Int) -> ConfigurationWrite {
        ConfigurationWrite(key: "video:video_channel", value: ConfigurationValue.integer(channel))
    }
}
