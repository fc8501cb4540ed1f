import Foundation

/// The tokens of the phones paired with this unit: what `POST /pair` hands out and every command of
/// a paired phone carries (`X-FollowMe-Token`). A token is `ID.SECRET`: a 64-bit id to find it and a
/// 128-bit secret compared in constant time, both from the system's generator (getrandom(2)).
///
/// Kept in a file when `[web] code_file` holds the unit's secret and the service has a state
/// directory (systemd's `StateDirectory=`, `$STATE_DIRECTORY`): phones stay paired across a restart of
/// `followme run`. The file records the secret file's identity (device, inode, modification time,
/// size): a secret rotated while no `followme run` was there (`followme pair --new` writes a new
/// file) leaves the stored tokens void. Not thread-safe: `CockpitAuthority` holds it under its lock.
struct PairedTokens {
    /// The most tokens kept: our choice, far more phones than a field holds; the least recently used
    /// one is forgotten past it (that phone pairs again).
    static let capacity = 64

    private struct Entry {
        var secret: [UInt8]
        var lastUsed: UInt64
    }

    private var entries: [String: Entry] = [:]
    private var uses: UInt64 = 0
    /// Where they are kept (nil: in memory only), and the identity of the secret they belong to.
    let file: String?
    private(set) var secretStamp: String

    init(file: String?, secretStamp: String) {
        (self.file, self.secretStamp) = (file, secretStamp)
        load()
    }

    var count: Int { entries.count }

    /// A new token, kept (and written to the file).
    mutating func issue() -> String {
        var generator = SystemRandomNumberGenerator()
        let id = String(format: "%016llx", generator.next() as UInt64)
        let secret = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        if entries.count >= Self.capacity, let oldest = entries.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key {
            entries[oldest] = nil
        }
        uses += 1
        entries[id] = Entry(secret: secret, lastUsed: uses)
        save()
        return id + "." + Self.hex(secret)
    }

    /// Whether `token` is one of ours (and marks it used).
    mutating func contains(_ token: String?) -> Bool {
        guard let token, let dot = token.firstIndex(of: "."), let given = Self.bytes(hex: token[token.index(after: dot)...]),
              var entry = entries[String(token[..<dot])] else { return false }
        var difference = UInt8(given.count == entry.secret.count ? 0 : 1)
        for (index, byte) in entry.secret.enumerated() { difference |= byte ^ (index < given.count ? given[index] : 0) }
        guard difference == 0 else { return false }
        uses += 1
        entry.lastUsed = uses
        entries[String(token[..<dot])] = entry
        return true
    }

    /// Every token void: the secret changed (`stamp` is the new one's identity).
    mutating func revokeAll(secretStamp stamp: String) {
        entries = [:]
        secretStamp = stamp
        save()
    }

    // MARK: The file

    private static let header = "followme-cockpit-tokens 1"

    private mutating func load() {
        guard let file, let data = FileManager.default.contents(atPath: file) else { return }
        let lines = String(decoding: data.prefix(64 * 1024), as: UTF8.self).split(separator: "\n")
        guard lines.count >= 2, lines[0] == Self.header, lines[1] == "secret \(secretStamp)" else { return }
        for line in lines.dropFirst(2).prefix(Self.capacity) {
            let fields = line.split(separator: " ")
            guard fields.count == 2, fields[0].count == 16, let secret = Self.bytes(hex: fields[1]), secret.count == 16 else { continue }
            uses += 1
            entries[String(fields[0])] = Entry(secret: secret, lastUsed: uses)
        }
    }

    /// Writes the tokens atomically (a new file renamed over the old, mode 0600); a failure only
    /// means the phones pair again after a restart.
    private func save() {
        guard let file else { return }
        var text = Self.header + "\nsecret \(secretStamp)\n"
        for (id, entry) in entries.sorted(by: { $0.value.lastUsed < $1.value.lastUsed }) { text += "\(id) \(Self.hex(entry.secret))\n" }
        let temporary = file + ".new"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        let written = text.utf8.withContiguousStorageIfAvailable { write(descriptor, $0.baseAddress, $0.count) } ?? -1
        close(descriptor)
        guard written == text.utf8.count else { unlink(temporary); return }
        rename(temporary, file)
    }

    // MARK: Hex

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func bytes(hex: some StringProtocol) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0, digits.count <= 64 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
