// Thin wrappers over libm so the pure modules need not import Foundation.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

@inlinable public func _sin(_ x: Double) -> Double { sin(x) }
@inlinable public func _cos(_ x: Double) -> Double { cos(x) }
@inlinable public func _atan2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
@inlinable public func _exp(_ x: Double) -> Double { exp(x) }
@inlinable public func _tan(_ x: Double) -> Double { tan(x) }
@inlinable public func _asin(_ x: Double) -> Double { asin(x) }
@inlinable public func _log(_ x: Double) -> Double { log(x) }
