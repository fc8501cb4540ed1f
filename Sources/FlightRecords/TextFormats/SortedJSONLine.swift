import Foundation

/// A value sent as one JSON object per line with sorted keys (the status socket's status and reply
/// lines): Foundation's encoder, since these lines carry arrays and are written a few times a second
/// (the flight log's exact-bytes lines use `JSONLineEncoder`).
public protocol SortedJSONLine: Codable {}

extension SortedJSONLine {
    /// The value as one JSON line (no newline); `{}` if it cannot be encoded.
    public func jsonLine() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Decodes one line; nil if it is not such a value.
    public static func decodeLine(_ line: some StringProtocol) -> Self? {
        try? JSONDecoder().decode(Self.self, from: Data(line.utf8))
    }
}
