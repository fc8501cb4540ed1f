import MemberwiseInit
import Testing

@MemberwiseInit
public struct Plain: Equatable {
    public var a: Int
    public let b: String
}

@MemberwiseInit(.package, inlinable: true)
package struct WithDefaults {
    package var gain: Double = 0.5
    package var name: String
    /// A `let` with a value is not an input: it cannot be assigned.
    package let constant: Int = 7
    /// Computed and static properties are not inputs either.
    package var doubled: Double { gain * 2 }
    package static let shared = 3
    /// A closure property becomes an `@escaping` parameter.
    package var onChange: @Sendable (Double) -> Double
}

@Suite("@MemberwiseInit writes the init Swift would synthesize, at the access asked for")
struct MemberwiseInitTests {
    @Test("one parameter per stored property, in order, labelled with its name")
    func plain() {
        let value = Plain(a: 3, b: "x")
        #expect(value == Plain(a: 3, b: "x"))
        #expect(value.a == 3 && value.b == "x")
    }

    @Test("var defaults become default arguments; lets with values, computed and static properties are left out; closures escape")
    func defaults() {
        let value = WithDefaults(name: "n", onChange: { $0 + 1 })
        #expect(value.gain == 0.5 && value.name == "n" && value.constant == 7 && value.doubled == 1)
        #expect(value.onChange(1) == 2)
        let other = WithDefaults(gain: 2, name: "m", onChange: { $0 })
        #expect(other.gain == 2 && other.doubled == 4)
    }
}
