extension Navdata {
    /// Header: magic, state, sequence, vision flag (4 × uint32).
    public static let headerByteCount = 16
    /// Checksum option: tag, size, uint32 sum.
    public static let checksumOptionByteCount = 8
    /// Smallest valid packet (a bootstrap packet).
    public static let minimumByteCount = headerByteCount + checksumOptionByteCount
    /// `NAVDATA_MAX_SIZE` 4096 (`navdata_common.h`).
    public static let maximumByteCount = 4096

    /// Decodes one navdata datagram.
    ///
    /// Checks, in order: length, magic, the option chain (walked by each option's `size`: below 4
    /// or past the end is an error; must end in a checksum option of size 8 exactly at the end of
    /// the packet), the checksum (unsigned 32-bit sum of every byte before the checksum option:
    /// SDK `ardrone_navdata_compute_cks`), and only then the contents of known options. Never reads
    /// out of bounds, never loops: each step advances by at least 4 bytes.
    public init(bytes: [UInt8]) throws(NavdataDecodingError) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(NavdataDecodingError) in try Navdata(bytes: raw) }
        }
        self = try result.get()
    }

    /// Decodes one navdata datagram. See `init(bytes: [UInt8])`.
    public init(bytes: UnsafeRawBufferPointer) throws(NavdataDecodingError) {
        let header = try NavdataPacketLayout(validating: bytes)
        let checksumOffset = header.checksumOffset

        // Pass 2: decode options (the chain is known to be well formed).
        var options: [NavdataOption] = []
        var offset = Self.headerByteCount
        while offset < checksumOffset {
            var optionHeader = LittleEndianReader(bytes, offset: offset)
            let tag = optionHeader.uint16()
            let size = optionHeader.uint16()
            let option = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + Int(size))])
            options.append(try Self.decodeOption(tag: tag, size: size, offset: offset, bytes: option))
            offset += Int(size)
        }

        self.init(magic: header.magic, state: header.state, sequenceNumber: header.sequenceNumber,
                  visionFlag: header.visionFlag, options: options)
    }

    /// Unsigned 32-bit wrapping sum of `bytes` (`ardrone_navdata_compute_cks`: `cks += nv[i]`).
    public static func checksum(of bytes: UnsafeRawBufferPointer) -> UInt32 {
        var sum: UInt32 = 0
        for byte in bytes { sum &+= UInt32(byte) }
        return sum
    }

    /// Unsigned 32-bit wrapping sum of `bytes`.
    public static func checksum(of bytes: some Sequence<UInt8>) -> UInt32 {
        var sum: UInt32 = 0
        for byte in bytes { sum &+= UInt32(byte) }
        return sum
    }

    /// Walks options by their size fields; returns the offset of the checksum option.
    static func validateOptionChain(_ bytes: UnsafeRawBufferPointer) throws(NavdataDecodingError) -> Int {
        let count = bytes.count
        var offset = headerByteCount
        while true {
            let remaining = count - offset
            guard remaining > 0 else { throw .missingChecksum }
            guard remaining >= 4 else { throw .truncatedOptionHeader(offset: offset, bytesRemaining: remaining) }
            var reader = LittleEndianReader(bytes, offset: offset)
            let tag = reader.uint16()
            let size = reader.uint16()
            // Zero size: SDK "One option (%d) is not a valid option because its size is zero".
            guard size >= 4 else { throw .invalidOptionSize(tag: tag, offset: offset, size: size) }
            guard Int(size) <= remaining else {
                throw .optionExceedsPacket(tag: tag, offset: offset, size: size, bytesRemaining: remaining)
            }
            if tag == NavdataOptionTag.checksum.rawValue {
                guard Int(size) == checksumOptionByteCount else {
                    throw .invalidChecksumOptionSize(offset: offset, size: size)
                }
                let after = offset + checksumOptionByteCount
                guard after == count else { throw .bytesAfterChecksum(offset: after, count: count - after) }
                return offset
            }
            offset += Int(size)
        }
    }

    /// The smallest size (header included) of an option with a typed layout, or nil if any size
    /// ≥ 4 is accepted (other options are kept raw; GPS of another size than 216 too). Both decoders
    /// reject a shorter typed option with `.optionTooShort`.
    static func minimumOptionByteCount(tag: UInt16) -> Int? {
        switch NavdataOptionTag(rawValue: tag) {
        case .demo: NavdataDemo.fixedByteCount
        case .time: NavdataTime.minimumByteCount
        case .magneto: NavdataMagneto.minimumByteCount
        default: nil
        }
    }

    /// Decodes one option; `bytes` spans the whole option including its 4-byte header.
    private static func decodeOption(
        tag: UInt16, size: UInt16, offset: Int, bytes: UnsafeRawBufferPointer
    ) throws(NavdataDecodingError) -> NavdataOption {
        if let minimum = minimumOptionByteCount(tag: tag), bytes.count < minimum {
            throw .optionTooShort(tag: tag, offset: offset, size: size, minimumSize: minimum)
        }
        var reader = LittleEndianReader(bytes, offset: 4)
        switch NavdataOptionTag(rawValue: tag) {
        case .demo:
            return .demo(decodeDemo(&reader))
        case .time:
            return .time(NavdataTime(time: NavdataTimestamp(rawValue: reader.uint32()),
                                     extensionBytes: reader.remainingBytes()))
        case .magneto:
            return .magneto(NavdataMagneto(
                rawCounts: NavdataInt16Vector3(x: reader.int16(), y: reader.int16(), z: reader.int16()),
                rawMilligauss: reader.float32Vector(),
                rectifiedMilligauss: reader.float32Vector(),
                offsetMilligauss: reader.float32Vector(),
                headingUnwrappedDegrees: reader.float32(),
                headingGyroUnwrappedDegrees: reader.float32(),
                headingFusionUnwrappedDegrees: reader.float32(),
                calibrationOKByte: reader.uint8(),
                magnetoState: reader.uint32(),
                radius: reader.float32(),
                errorMean: reader.float32(),
                errorVariance: reader.float32(),
                extensionBytes: reader.remainingBytes()
            ))
        case .gps where bytes.count == NavdataGPS.byteCount:
            return .gps(decodeGPS(&reader))
        default:
            reader = LittleEndianReader(bytes, offset: 4)
            return .raw(NavdataRawOption(tag: NavdataOptionTag(rawValue: tag), payload: reader.remainingBytes()))
        }
    }

    /// Decodes a demo option's fields; `reader` is past the option header of an option known to be
    /// at least `NavdataDemo.fixedByteCount` long. Allocates nothing for a 148-byte option.
    static func decodeDemo(_ reader: inout LittleEndianReader) -> NavdataDemo {
        var demo = NavdataDemo(
            controlStateWord: reader.uint32(),
            batteryPercent: reader.uint32(),
            thetaMillidegrees: reader.float32(),
            phiMillidegrees: reader.float32(),
            psiMillidegrees: reader.float32(),
            altitudeMillimeters: reader.int32(),
            bodyVelocityMillimetersPerSecond: reader.float32Vector()
        )
        demo.setTrailing(reader.remainingRawBytes())
        return demo
    }

    /// Decodes the 212 payload bytes of a 216-byte GPS option (offsets in `NavdataGPS` docs).
    /// The arguments are read in wire order: Swift evaluates them left to right.
    private static func decodeGPS(_ reader: inout LittleEndianReader) -> NavdataGPS {
        NavdataGPS(
            latitudeDegrees: reader.float64(),
            longitudeDegrees: reader.float64(),
            elevationMeters: reader.float64(),
            hdop: reader.float64(),
            dataAvailable: reader.uint32(),
            zeroValidatedFlag: reader.uint32(),
            waypointValidatedFlag: reader.uint32(),
            latitude0Degrees: reader.float64(),
            longitude0Degrees: reader.float64(),
            latitudeFusedDegrees: reader.float64(),
            longitudeFusedDegrees: reader.float64(),
            gpsState: reader.uint32(),
            waypointControllerTerms: (0..<NavdataGPS.controllerTermCount).map { _ in reader.float32() },
            vdop: reader.float64(),
            pdop: reader.float64(),
            speed: reader.float32(),
            lastFrameTimestamp: NavdataTimestamp(rawValue: reader.uint32()),
            degree: reader.float32(),
            degreeMagnetic: reader.float32(),
            ehpe: reader.float32(),
            ehve: reader.float32(),
            carrierToNoise: reader.float32(),
            satelliteCount: reader.uint32(),
            channels: (0..<NavdataGPS.channelCount).map { _ in
                NavdataGPSChannel(satelliteID: reader.uint8(), carrierToNoise: reader.uint8())
            },
            gpsPluggedFlag: reader.uint32(),
            ephemerisStatus: reader.uint32(),
            vxTraj: reader.float32(),
            vyTraj: reader.float32(),
            firmwareStatus: reader.uint32()
        )
    }
}
