import FollowCore

/// One key of `followme.toml`, declared once: a row of ``ConfigKeys/all``.
///
/// Everything the config module does with a key comes from its row: reading and checking it
/// (`FILE:LINE: KEY` problems), its default (``FollowMeConfiguration/defaults``), the line
/// `followme config check` prints, the unknown-key suggestions, the unused-key notes, the shipped
/// `etc/followme.toml` comment check and docs/config-keys.md. Rows are built by the typed factories
/// (`number`, `integer`, `port`, `string`, …, in `ConfigKey+Kinds.swift`), which fix how each kind of
/// value is read, written back and documented.
package struct ConfigKey: Sendable {
    /// Which configurations read the key; in the others a non-default value is an unused-key note.
    package enum Use: Sendable, Equatable {
        /// Every configuration.
        case always
        /// Only the AR.Drone link (`drone.protocol = "ardrone"`).
        case ardrone
        /// Only the MAVLink link (`drone.protocol = "mavlink"`); also written by `config check` only then.
        case mavlink
        /// Only when the onboard gpsd receiver is read (``FollowMeConfiguration/readsOnboardReceiver``).
        case onboardReceiver
    }

    /// Where a key's default comes from.
    package enum Default<Value: Sendable>: Sendable {
        /// A fixed value.
        case value(Value)
        /// The value of an earlier key (`target.host` defaults to `gpsd.host`), named for the docs.
        case sameAs(any WritableKeyPath<FollowMeConfiguration, Value> & Sendable, key: String)
    }

    /// The `[table]` the key lives in.
    package let table: String
    /// The key's name inside its table.
    package let name: String
    /// One line for a person: what the key does (docs/config-keys.md).
    package let help: String
    /// Unit, range and default of a numeric key: the flight core's `ParameterSpec`, or the config's own.
    package let spec: ParameterSpec?
    /// A numeric key written as a whole number (a float there is a wrong type).
    package let isInteger: Bool
    /// The value's type as the file writes it ("number", "integer", "string", …).
    package let typeText: String
    /// The unit, or "" (docs).
    package let unitText: String
    /// The accepted values as the shipped file and the docs state them ("2 to 50",
    /// "1 to drone.altitude_max_m", "Any finite angle", `"max", "device" or Hz 0.5 to 20`), or "".
    package let rangeText: String
    /// The default as the file writes it (`11`, `"127.0.0.1"`), or the key it is copied from (`gpsd.host`).
    package let defaultText: String
    /// Which configurations read it.
    package let use: Use
    /// Keys whose value this key's range depends on: they are read first.
    package let dependsOn: [String]
    /// `config check` prints the key only for a MAVLink file (`[mavlink]`, `drone.protocol`), so an
    /// AR.Drone file prints what it did before MAVLink existed.
    package let printedOnlyWithMAVLink: Bool
    /// The field the key writes (a `WritableKeyPath<FollowMeConfiguration, _>`): a field of the config's
    /// own tables (`\.mavlink.port`), or the flight core's parameter itself (`\.follow.standoffMeters`,
    /// `\.failsafe.minBatteryPercent`). No two rows write the same field.
    package let keyPath: any AnyKeyPath & Sendable

    /// Reads the key into the configuration: the written value if it passes, else the default
    /// (`reader` records the problem).
    let read: @Sendable (inout ConfigReader, inout FollowMeConfiguration) -> Void
    /// Sets the field to the key's default (`sameAs` keys: from the earlier key, already set).
    let applyDefault: @Sendable (inout FollowMeConfiguration) -> Void
    /// The `key = value  # comment` line `config check` prints.
    let render: @Sendable (FollowMeConfiguration) -> String
    /// True if the field differs from what the key gives when it is not written.
    let differsFromDefault: @Sendable (FollowMeConfiguration) -> Bool

    /// `table.key`, as messages name it.
    package var dotted: String { "\(table).\(name)" }

    /// A row whose value, as the file writes it, is a `Value`, kept in a field of type `Field` through
    /// `conversion` (``Conversion/identity`` unless the core keeps it differently). `read` returns the
    /// value to keep (the default when the written one is rejected); `value` writes it back as TOML.
    init<Value: Equatable & Sendable, Field>(
        _ table: String, _ name: String, _ keyPath: any WritableKeyPath<FollowMeConfiguration, Field> & Sendable,
        as conversion: Conversion<Value, Field>, default defaultValue: Default<Value>, help: String,
        spec: ParameterSpec? = nil, isInteger: Bool = false, typeText: String, unitText: String = "",
        rangeText: String = "", defaultText: String, use: Use = .always, dependsOn: [String] = [],
        printedOnlyWithMAVLink: Bool = false,
        read: @escaping @Sendable (inout ConfigReader, _ default: Value, FollowMeConfiguration) -> Value,
        value: @escaping @Sendable (Value) -> String, comment: String? = nil
    ) {
        self.table = table
        self.name = name
        self.help = help
        self.spec = spec
        self.isInteger = isInteger
        self.typeText = typeText
        self.unitText = unitText
        self.rangeText = rangeText
        self.defaultText = defaultText
        self.use = use
        self.dependsOn = dependsOn
        self.printedOnlyWithMAVLink = printedOnlyWithMAVLink || use == .mavlink
        self.keyPath = keyPath
        let resolved: @Sendable (FollowMeConfiguration) -> Value = { c in
            switch defaultValue {
            case .value(let value): return value
            case .sameAs(let source, _): return c[keyPath: source]
            }
        }
        self.read = { r, c in c[keyPath: keyPath] = conversion.store(read(&r, resolved(c), c)) }
        self.applyDefault = { c in c[keyPath: keyPath] = conversion.store(resolved(c)) }
        self.render = { c in
            "\(name) = \(value(conversion.load(c[keyPath: keyPath])))" + (comment.map { "  # \($0)" } ?? "")
        }
        self.differsFromDefault = { c in conversion.load(c[keyPath: keyPath]) != resolved(c) }
    }

    /// How a key's value as the file writes it (`Value`) is kept in the field it writes (`Field`): the
    /// same type, or the core's (a whole-percent integer kept as the core's `Double` percent). `load`
    /// undoes `store` for every value the key accepts.
    struct Conversion<Value, Field>: Sendable {
        /// The field's value for a value the file writes.
        let store: @Sendable (Value) -> Field
        /// The value the file writes for the field's value (printed by `config check`, compared to the default).
        let load: @Sendable (Field) -> Value
    }
}

extension ConfigKey.Conversion where Value == Field {
    /// The field holds the value as the file writes it.
    static var identity: Self { Self(store: { $0 }, load: { $0 }) }
}
