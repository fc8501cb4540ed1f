import ArgumentParser
import FlightRecords
import FlightService
import Foundation

/// `followme video`: the recordings of the AR.Drone's camera (docs/video.md).
struct VideoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "video",
        abstract: "Turn a flight's video recording into an MP4.",
        subcommands: [VideoMuxCommand.self]
    )
}

/// `followme video mux ID|PATH`: ffmpeg `-c copy` into `ID.mp4` beside the raw stream; without ffmpeg,
/// the raw stream's path and the command that would do it.
struct VideoMuxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mux",
        abstract: "Mux a recording's raw H.264 into an MP4 (ffmpeg -c copy, no re-encoding).",
        discussion: """
            ID is a recording's name in [video] directory (e.g. 2026-12-07T150102Z), or a path to its .h264.
            Prints the MP4's path. Without ffmpeg, prints the raw stream's path and the one-line command.
            Exit 1 if the recording is not found or ffmpeg fails.
            """
    )

    @Argument(help: "The recording: its id in [video] directory, or the path of its .h264.")
    var recording: String

    @Option(name: .long, help: "Directory holding the recordings (default: [video] directory of --config).")
    var directory: String?

    @OptionGroup var configOption: ConfigOption

    func run() throws {
        let directory = directory ?? {
            let config = loadConfigurationOrExit(path: configOption.config)
            return config.video.effectiveDirectory(log: config.log)
        }()
        guard let found = VideoMux.recording(recording, directory: directory) else {
            printError("followme video mux: no recording \(recording) (looked for it as a path and in \(directory))")
            throw ExitCode(1)
        }
        switch VideoMux.mux(found) {
        case .muxed(let mp4):
            print(mp4)
        case .noFFmpeg(let raw, let command):
            print(raw)
            print("ffmpeg is not installed (apt install ffmpeg); to make the MP4: \(command)")
        case .failed(let status, let message):
            printError("followme video mux: ffmpeg exited \(status): \(message)")
            throw ExitCode(1)
        }
        flushStandardOutput()
    }
}
