import Foundation  // test-only: read the parameter sources to check their doc comments
import Testing
@testable import FollowCore
import ARDrone

/// The one declaration of each tunable (`ParameterSpec`) and what is said about it elsewhere.
@Suite("ParameterSpec: one declaration per tunable")
struct ParameterSpecTests {
    static let tables: [(file: String, specs: [ParameterSpec])] = [
        ("FollowParameters.swift", FollowParameters.Spec.all), ("FailsafeParameters.swift", FailsafeParameters.Spec.all),
        ("ControllerTuning.swift", ControllerTuning.Spec.all), ("EstimatorTuning.swift", EstimatorTuning.Spec.all),
    ]

    @Test("the types built with no arguments are the declared defaults, and they validate")
    func defaultsValidate() throws {
        try FollowParameters().validate()
        try FailsafeParameters().validate()
        try ControllerTuning().validate()
        try EstimatorTuning().validate()
        #expect(FollowParameters().standoffMeters == FollowParameters.Spec.standoffMeters.defaultValue)
        #expect(FailsafeParameters().gpsRelativeErrorMeters == FailsafeParameters.Spec.gpsRelativeErrorMeters.defaultValue)
        #expect(EstimatorTuning().fixesToConverge == EstimatorTuning.Spec.fixesToConverge.integerDefault)
        _ = try FlightStateMachine(vehicle: .tiltLoop)
    }

    @Test("a value just outside a declared range is refused with that range", arguments: tables.map(\.file))
    func rangesAreEnforced(file: String) throws {
        let specs = try #require(Self.tables.first { $0.file == file }).specs
        for spec in specs {
            #expect(throws: ParameterError.outOfRange(parameter: spec.name, value: spec.range.upperBound + 1,
                                                      allowed: spec.range)) {
                try spec.check(spec.range.upperBound + 1)
            }
            #expect(throws: Never.self) { try spec.check(spec.range.lowerBound) }
        }
        // And the types' own validate uses them: one field past its upper bound is refused
        var tuning = ControllerTuning()
        tuning.commandLatencySeconds = ControllerTuning.Spec.commandLatencySeconds.range.upperBound + 0.1
        #expect(throws: ParameterError.self) { try tuning.validate() }
    }

    /// Each type's `parameterFields` table lists every numeric stored field once, in declaration order,
    /// under its own name, and the type's `validate()` refuses each one just past its upper bound, by name.
    @Test("every numeric field is in its type's table, and validate() checks it",
          arguments: [("FollowParameters", FollowParameters().fieldNames(), FollowParameters().refusals()),
                      ("FailsafeParameters", FailsafeParameters().fieldNames(), FailsafeParameters().refusals()),
                      ("ControllerTuning", ControllerTuning().fieldNames(), ControllerTuning().refusals()),
                      ("EstimatorTuning", EstimatorTuning().fieldNames(), EstimatorTuning().refusals())])
    func tableCoversEveryField(type: String, fields: (stored: [String], table: [String]), refusals: [(String, String?)]) {
        // Given the stored numeric fields and the table; then the table names exactly those, in order
        #expect(fields.table == fields.stored, "\(type)")
        // When each field alone is set just past its upper bound; then validate() names that field
        for (field, refusedAs) in refusals {
            #expect(refusedAs == field, "\(type).\(field) past its upper bound was refused as \(refusedAs ?? "nothing")")
        }
    }

    /// Doc comments that state a default or range ("Default 0.7, range 0.1…10" on a field, "Metres, 2…50,
    /// default 11" on a spec entry) must state the declared one: a doc cannot drift from the table.
    @Test("doc comments state the declared default and range", arguments: tables.map(\.file))
    func docsAgree(file: String) throws {
        let specs = try #require(Self.tables.first { $0.file == file }).specs
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let text = try String(contentsOf: url.appendingPathComponent("Sources/FollowCore/Parameters/\(file)"), encoding: .utf8)
            .replacingOccurrences(of: "−", with: "-")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var checked = 0
        for (index, line) in lines.enumerated() {
            guard let spec = specs.first(where: { line.contains("public var \($0.name):") || line.contains("let \($0.name) = ") })
            else { continue }
            var doc = ""
            var above = index - 1
            while above >= 0, lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("///") {
                doc = lines[above] + " " + doc
                above -= 1
            }
            let number = #"(-?[0-9]+(?:\.[0-9]+)?)"#
            if let d = Self.firstMatch("[Dd]efault " + number, in: doc) {
                #expect(Double(d[0]) == spec.defaultValue, "\(file) \(spec.name): doc says default \(d[0])")
                checked += 1
            }
            if let r = Self.firstMatch(number + "…" + number, in: doc) {
                #expect(Double(r[0]) == spec.range.lowerBound && Double(r[1]) == spec.range.upperBound,
                        "\(file) \(spec.name): doc says \(r[0])…\(r[1]), declared \(spec.range)")
                checked += 1
            }
        }
        #expect(checked >= specs.count, "\(file): only \(checked) statements checked")
    }

    static func firstMatch(_ pattern: String, in text: String) -> [String]? {
        guard let regex = try? NSRegularExpression(pattern: pattern),
              let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { return nil }
        return (1..<match.numberOfRanges).compactMap { Range(match.range(at: $0), in: text).map { String(text[$0]) } }
    }
}

extension ParameterSet {
    /// The numeric stored fields by reflection, and the names in `parameterFields`.
    func fieldNames() -> (stored: [String], table: [String]) {
        let stored = Mirror(reflecting: self).children.compactMap { child in
            child.value is Double || child.value is Int ? child.label : nil
        }
        return (stored, Self.parameterFields.map(\.spec.name))
    }

    /// For each table row: the field's name and the name `validate()` gives when only that field is set
    /// one past its upper bound (a whole-number field: the next whole number).
    func refusals() -> [(String, String?)] {
        Self.parameterFields.map { field in
            var copy = self
            if let keyPath = field.keyPath as? WritableKeyPath<Self, Double> {
                copy[keyPath: keyPath] = field.spec.range.upperBound + 1
            } else if let keyPath = field.keyPath as? WritableKeyPath<Self, Int> {
                copy[keyPath: keyPath] = field.spec.integerRange.upperBound + 1
            }
            do {
                try copy.validate()
                return (field.spec.name, nil)
            } catch {
                guard case let .outOfRange(parameter, _, _)? = error as? ParameterError else { return (field.spec.name, "\(error)") }
                return (field.spec.name, parameter)
            }
        }
    }
}
