/// Splits a byte stream (a socket read chunk by chunk) into complete `\n`-terminated lines,
/// keeping a trailing partial line for the next chunk.
public struct LineSplitter: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    /// Appends `bytes` and returns the lines they completed, without their `\n`.
    public mutating func append(_ bytes: some Sequence<UInt8>) -> [String] {
        pending += bytes
        var lines: [String] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: pending[..<newline], as: UTF8.self))
            pending.removeSubrange(...newline)
        }
        return lines
    }
}
