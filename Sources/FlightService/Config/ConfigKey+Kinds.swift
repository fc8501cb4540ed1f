import FollowCore

/// The kinds of key: how each is read, printed by `config check` and documented.
extension ConfigKey {
    typealias Path<Value> = any WritableKeyPath<FollowMeConfiguration, Value> & Sendable

    /// A bound that depends on keys read earlier: the accepted range and where its upper bound comes from.
    typealias DependentRange = @Sendable (ConfigReader, FollowMeConfiguration, _ declared: ClosedRange<Double>)
        -> (range: ClosedRange<Double>, note: String?)

    /// A number (integer or float) in `spec`'s range, default `spec.defaultValue`. `bound` narrows the
    /// range by other keys (named in `dependsOn`, stated in the file as `boundText`: the upper bound, or
    /// the lower with `lowerBound`); `note` ends the printed comment; `use` says which configurations read it.
    static func number(
        _ table: String, _ name: String, _ path: Path<Double>, _ spec: ParameterSpec, help: String,
        note: String? = nil, bound: (text: String, dependsOn: [String], range: DependentRange)? = nil,
        lowerBound: Bool = false, use: Use = .always
    ) -> ConfigKey {
        let rangeText = bound.map {
            lowerBound ? "\($0.text) to \(ConfigReader.format(spec.range.upperBound))"
                : "\(ConfigReader.format(spec.range.lowerBound)) to \($0.text)"
        } ?? ConfigReader.format(spec.range)
        return ConfigKey(
            table, name, path, as: .identity, default: .value(spec.defaultValue), help: help, spec: spec,
            typeText: "number", unitText: spec.unit, rangeText: rangeText,
            defaultText: ConfigReader.format(spec.defaultValue), use: use, dependsOn: bound?.dependsOn ?? [],
            read: { r, d, c in
                let (range, rangeNote) = bound?.range(r, c, spec.range) ?? (spec.range, nil)
                return r.double(table, name, default: d, range: range, rangeNote: rangeNote)
            },
            value: { String($0) }, comment: "\(spec.unit), \(rangeText)" + (note.map { ", \($0)" } ?? ""))
    }

    /// A whole number in `spec`'s range (a float is a wrong type), default `spec.defaultValue`.
    static func integer(
        _ table: String, _ name: String, _ path: Path<Int>, _ spec: ParameterSpec, help: String,
        note: String? = nil, use: Use = .always
    ) -> ConfigKey {
        integer(table, name, path, as: .identity, spec, help: help, note: note, use: use)
    }

    /// A whole number in `spec`'s range kept in a `Double` field (the core's battery percentages): read,
    /// checked, printed and documented as an `Int` field's (a float is a wrong type).
    static func integer(
        _ table: String, _ name: String, _ path: Path<Double>, _ spec: ParameterSpec, help: String,
        note: String? = nil, use: Use = .always
    ) -> ConfigKey {
        integer(table, name, path, as: Conversion(store: { Double($0) }, load: { Int($0) }), spec, help: help,
                note: note, use: use)
    }

    private static func integer<Field>(
        _ table: String, _ name: String, _ path: Path<Field>, as conversion: Conversion<Int, Field>,
        _ spec: ParameterSpec, help: String, note: String?, use: Use
    ) -> ConfigKey {
        let rangeText = ConfigReader.format(spec.range)
        return ConfigKey(
            table, name, path, as: conversion, default: .value(spec.integerDefault), help: help, spec: spec,
            isInteger: true, typeText: "integer", unitText: spec.unit, rangeText: rangeText,
            defaultText: ConfigReader.format(spec.defaultValue), use: use,
            read: { r, d, _ in r.int(table, name, default: d, range: spec.integerRange) },
            value: { String($0) }, comment: "\(spec.unit), \(rangeText)" + (note.map { ", \($0)" } ?? ""))
    }

    /// Any finite angle in degrees, normalised into [0, 360) (the core's `spec` bounds the normalised value).
    static func angle(_ table: String, _ name: String, _ path: Path<Double>, _ spec: ParameterSpec, help: String,
                      comment: String, use: Use = .always) -> ConfigKey {
        ConfigKey(
            table, name, path, as: .identity, default: .value(normalizedDegrees360(spec.defaultValue)), help: help,
            spec: spec, typeText: "number", unitText: spec.unit, rangeText: "Any finite angle",
            defaultText: ConfigReader.format(spec.defaultValue), use: use,
            read: { r, d, _ in normalizedDegrees360(r.double(table, name, default: d, range: nil)) },
            value: { String($0) }, comment: comment)
    }

    /// A TCP or UDP port, 1 to 65535.
    static func port(_ table: String, _ name: String, _ path: Path<Int>, default d: Default<Int>, udp: Bool = false,
                     help: String, use: Use = .always) -> ConfigKey {
        let range = GPSDLimits.portRange
        let rangeText = "\(range.lowerBound) to \(range.upperBound)"
        return ConfigKey(
            table, name, path, as: .identity, default: d, help: help, isInteger: true, typeText: "integer",
            unitText: udp ? "UDP port" : "TCP port", rangeText: rangeText, defaultText: text(d, String.init), use: use,
            read: { r, d, _ in r.int(table, name, default: d, range: range) },
            value: { String($0) }, comment: (udp ? "UDP, " : "") + rangeText)
    }

    /// A string; `problem` says why a value is unusable (`nil`: fine).
    static func string(
        _ table: String, _ name: String, _ path: Path<String>, default d: Default<String>, help: String,
        comment: String? = nil, use: Use = .always, problem: @escaping @Sendable (String) -> String?
    ) -> ConfigKey {
        ConfigKey(
            table, name, path, as: .identity, default: d, help: help, typeText: "string",
            defaultText: text(d, renderTOMLString), use: use,
            read: { r, d, _ in r.string(table, name, default: d, problem: problem) },
            value: renderTOMLString, comment: comment)
    }

    /// A string where "" means none (`nil`); `problem` as for ``string(_:_:_:default:help:comment:use:problem:)``.
    static func optionalString(
        _ table: String, _ name: String, _ path: Path<String?>, default d: String?, help: String, comment: String,
        use: Use = .always, problem: @escaping @Sendable (String) -> String?
    ) -> ConfigKey {
        ConfigKey(
            table, name, path, as: .identity, default: .value(d), help: help, typeText: "string",
            defaultText: renderTOMLString(d ?? ""), use: use,
            read: { r, d, _ in
                let string = r.string(table, name, default: d ?? "", problem: problem)
                return string.isEmpty ? nil : string
            },
            value: { renderTOMLString($0 ?? "") }, comment: comment)
    }

    /// `true` or `false`.
    static func bool(_ table: String, _ name: String, _ path: Path<Bool>, default d: Bool, help: String,
                     use: Use = .always) -> ConfigKey {
        ConfigKey(
            table, name, path, as: .identity, default: .value(d), help: help, typeText: "true or false",
            defaultText: String(d), use: use,
            read: { r, d, _ in r.bool(table, name, default: d) }, value: { String($0) })
    }

    /// One of an enumeration's raw values.
    static func choice<Choice: RawRepresentable & CaseIterable & Equatable & Sendable>(
        _ table: String, _ name: String, _ path: Path<Choice>, default d: Choice, help: String, use: Use = .always,
        printedOnlyWithMAVLink: Bool = false
    ) -> ConfigKey where Choice.RawValue == String {
        choice(table, name, path, as: .identity, default: d, help: help, use: use,
               printedOnlyWithMAVLink: printedOnlyWithMAVLink)
    }

    /// One of an enumeration's raw values, kept in the field as `conversion` says (`follow.takeoff`:
    /// "start" is the core's `takeOffOnStart`).
    static func choice<Choice: RawRepresentable & CaseIterable & Equatable & Sendable, Field>(
        _ table: String, _ name: String, _ path: Path<Field>, as conversion: Conversion<Choice, Field>,
        default d: Choice, help: String, use: Use = .always, printedOnlyWithMAVLink: Bool = false
    ) -> ConfigKey where Choice.RawValue == String {
        let choices = Choice.allCases.map { renderTOMLString($0.rawValue) }.joined(separator: " or ")
        return ConfigKey(
            table, name, path, as: conversion, default: .value(d), help: help, typeText: "string", rangeText: choices,
            defaultText: renderTOMLString(d.rawValue), use: use, printedOnlyWithMAVLink: printedOnlyWithMAVLink,
            read: { r, d, _ in r.choice(table, name, default: d) },
            value: { renderTOMLString($0.rawValue) }, comment: choices)
    }

    /// A receiver fix rate: "max", "device" or a number of Hz in ``FollowMeConfiguration/ReceiverRate/hertzRange``.
    static func rate(_ table: String, _ path: Path<FollowMeConfiguration.ReceiverRate>,
                     default d: FollowMeConfiguration.ReceiverRate, help: String, use: Use = .always) -> ConfigKey {
        let hertz = FollowMeConfiguration.ReceiverRate.hertzRange
        let rangeText = "\"max\", \"device\" or Hz \(ConfigReader.format(hertz))"
        return ConfigKey(
            table, "rate_hz", path, as: .identity, default: .value(d), help: help, typeText: "string or number",
            unitText: "Hz", rangeText: rangeText, defaultText: d.description, use: use,
            read: { r, d, _ in
                let keyword: String
                switch d {
                case .device: keyword = "device"
                case .max, .hertz: keyword = "max"  // defaults are keywords
                }
                let read = r.keywordOrNumber(table, "rate_hz", keywords: ["max", "device"], default: keyword, range: hertz)
                if let hz = read.number { return .hertz(hz) }
                return read.keyword == "device" ? .device : .max
            },
            value: { $0.description }, comment: rangeText)
    }

    /// The default as the docs write it: the value, or the key it is copied from.
    private static func text<Value>(_ d: Default<Value>, _ format: (Value) -> String) -> String {
        switch d {
        case .value(let value): return format(value)
        case .sameAs(_, let key): return key
        }
    }

}
