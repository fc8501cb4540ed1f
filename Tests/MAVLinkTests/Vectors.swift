import Foundation  // test-only: JSON and the fixture file
@testable import MAVLink
import Testing

/// One line of `Fixtures/pymavlink-vectors.json` (written by `pymavlink_vectors.py generate`): a
/// message's field values as element bits by common.xml name, and pymavlink's frame of them.
struct Vector: Sendable, CustomTestStringConvertible {
    let message: String
    /// The frame header pymavlink wrote, as the JSON states it (version, signed flag, seq, ids; no payload).
    let header: MAVLinkFrame
    let fields: [String: [UInt64]]
    let hex: String

    var bytes: [UInt8] { Hex.bytes(hex) }
    var testDescription: String { "\(message) \(header.version)\(header.isSigned ? " signed" : "") seq \(header.sequence)" }

    init(json: [String: Any]) throws {
        guard let message = json["message"] as? String, let id = json["id"] as? Int, let version = json["version"] as? Int,
              let signed = json["signed"] as? Bool, let sequence = json["seq"] as? Int,
              let systemID = json["sysid"] as? Int, let componentID = json["compid"] as? Int,
              let hex = json["hex"] as? String
        else { throw VectorError.malformed("\(json)") }
        (self.message, self.hex) = (message, hex)
        header = MAVLinkFrame(version: version == 1 ? .v1 : .v2, incompatibilityFlags: signed ? MAVLinkFrame.incompatibilityFlagSigned : 0,
                              sequence: UInt8(sequence), systemID: UInt8(systemID), componentID: UInt8(componentID), messageID: UInt32(id))
        fields = try Vector.fieldBits(json["fields"])
    }

    /// `{"name": [bits, …]}` as parsed by JSONSerialization.
    static func fieldBits(_ value: Any?) throws -> [String: [UInt64]] {
        guard let object = value as? [String: [NSNumber]] else { throw VectorError.malformed("fields \(String(describing: value))") }
        return object.mapValues { $0.map(\.uint64Value) }
    }

    /// The message type named `message`.
    var type: any MAVLinkMessage.Type {
        get throws {
            guard let type = MAVLinkMessages.all.first(where: { $0.messageName == message }) else {
                throw VectorError.malformed("unknown message \(message)")
            }
            return type
        }
    }
}

enum VectorError: Error { case malformed(String), missing(String) }

enum Hex {
    static func bytes(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var iterator = hex.utf8.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            bytes.append(UInt8(nibble(high) << 4 | nibble(low)))
        }
        return bytes
    }

    static func string(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    private static func nibble(_ c: UInt8) -> UInt8 { c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x61 + 10 }
}

enum Fixture {
    static let vectorsName = "pymavlink-vectors.json"

    static func url(_ name: String) throws -> URL {
        guard let directory = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            throw VectorError.missing("Fixtures/ in the test bundle")
        }
        return directory.appendingPathComponent(name)
    }

    /// The checked-in vector file's text.
    static func vectorText() throws -> String { try String(contentsOf: url(vectorsName), encoding: .utf8) }

    /// Its vectors.
    static func vectors() throws -> [Vector] {
        let object = try JSONSerialization.jsonObject(with: Data(try vectorText().utf8)) as? [String: Any]
        guard let list = object?["vectors"] as? [[String: Any]] else { throw VectorError.malformed("no vectors") }
        return try list.map(Vector.init(json:))
    }

    /// The field bits of `message` by name, as the vectors write them.
    static func bits(of message: any MAVLinkMessage) -> [String: [UInt64]] {
        Dictionary(uniqueKeysWithValues: message.fieldValues.map { ($0.name, $0.bits) })
    }
}
