/// Angle helpers in degrees. Every function is total over finite input and returns NaN only for NaN input.

/// Normalises an angle to [0, 360) degrees (e.g. a compass heading). −45 → 315, 720 → 0.
@inlinable
public func normalizedDegrees360(_ degrees: Double) -> Double {
    var r = degrees.truncatingRemainder(dividingBy: 360)
    if r < 0 { r += 360 }
    // -1e-15 + 360 rounds to 360.0 in binary floating point; keep the half-open interval.
    return r >= 360 ? 0 : r
}

/// Wraps an angle difference to [−180, 180) degrees: the shortest signed turn, positive = clockwise.
@inlinable
public func wrappedDegrees180(_ degrees: Double) -> Double {
    normalizedDegrees360(degrees + 180) - 180
}

@inlinable
public func radians(fromDegrees degrees: Double) -> Double { degrees * .pi / 180 }

@inlinable
public func degrees(fromRadians radians: Double) -> Double { radians * 180 / .pi }
