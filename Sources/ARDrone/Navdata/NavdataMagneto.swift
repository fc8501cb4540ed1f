import FollowCore

/// The magnetometer option (tag 22, 75 bytes).
///
/// Layout `navdata_magneto_t` (`navdata_common.h`), packed: 3 × int16, 12 × float32, one 1-byte
/// `char` (`magneto_calibration_ok`), uint32, 3 × float32. Because of the odd size every later
/// option is unaligned. Headings are in degrees (fixture: fusion 1.93336 vs demo psi 1.933°).
public struct NavdataMagneto: Sendable, Equatable {
    /// 4 + 6 + 36 + 12 + 1 + 4 + 12.
    public static let minimumByteCount = 75

    /// `mx, my, mz`: raw sensor counts (LSB).
    public var rawCounts: NavdataInt16Vector3 = NavdataInt16Vector3(x: 0, y: 0, z: 0)
    /// `magneto_raw`: field in milligauss, body frame.
    public var rawMilligauss: NavdataVector3 = .zero
    /// `magneto_rectified`: calibrated field, milligauss, body frame.
    public var rectifiedMilligauss: NavdataVector3 = .zero
    /// `magneto_offset`: calibration offset, milligauss.
    public var offsetMilligauss: NavdataVector3 = .zero
    /// `heading_unwrapped`: magnetometer heading, degrees, not wrapped to ±180.
    public var headingUnwrappedDegrees: Float = 0
    /// `heading_gyro_unwrapped`: gyro-integrated heading, degrees, not wrapped.
    public var headingGyroUnwrappedDegrees: Float = 0
    /// `heading_fusion_unwrapped`: fused heading, degrees, not wrapped.
    public var headingFusionUnwrappedDegrees: Float = 0
    /// `magneto_calibration_ok` (1-byte char) as sent; see `isCalibrationOK`.
    public var calibrationOKByte: UInt8 = 0
    /// `magneto_state`.
    public var magnetoState: UInt32 = 0
    /// `magneto_radius` (milligauss).
    public var radius: Float = 0
    /// `error_mean`.
    public var errorMean: Float = 0
    /// `error_var`.
    public var errorVariance: Float = 0
    /// Bytes after the known layout; normally empty.
    public var extensionBytes: [UInt8] = []

    /// Whether `magneto_calibration_ok` is non-zero.
    public var isCalibrationOK: Bool { calibrationOKByte != 0 }
}

extension NavdataMagneto: Configurable { public static var defaults: Self { Self() } }
