extension Navdata {
    /// Encodes the packet as the drone would send it, appending the checksum option.
    ///
    /// For the drone simulator; `try Navdata(bytes: x.encoded()) == x` for every value whose raw
    /// options do not mimic a typed layout (see `NavdataRawOption`).
    public func encoded() throws(NavdataEncodingError) -> [UInt8] {
        var bytes: [UInt8] = []
        try encode(into: &bytes)
        return bytes
    }

    /// Replaces the contents of `bytes` (keeping capacity) with the encoded packet.
    public func encode(into bytes: inout [UInt8]) throws(NavdataEncodingError) {
        bytes.removeAll(keepingCapacity: true)
        bytes.appendLittleEndian(magic.rawValue)
        bytes.appendLittleEndian(state.rawValue)
        bytes.appendLittleEndian(sequenceNumber)
        bytes.appendLittleEndian(visionFlag)
        for option in options {
            try Self.append(option, to: &bytes)
            guard bytes.count + Self.checksumOptionByteCount <= Self.maximumByteCount else {
                let count = bytes.count + Self.checksumOptionByteCount
                bytes.removeAll(keepingCapacity: true)
                throw .packetTooLong(byteCount: count, maximumByteCount: Self.maximumByteCount)
            }
        }
        let checksum = Self.checksum(of: bytes)
        bytes.appendLittleEndian(NavdataOptionTag.checksum.rawValue)
        bytes.appendLittleEndian(UInt16(Self.checksumOptionByteCount))
        bytes.appendLittleEndian(checksum)
    }

    private static func append(_ option: NavdataOption, to bytes: inout [UInt8]) throws(NavdataEncodingError) {
        let size = option.wireSize
        guard size <= Int(UInt16.max) else {
            throw .optionTooLarge(tag: option.tag.rawValue, byteCount: size)
        }
        guard option.tag != .checksum else { throw .reservedChecksumTag }
        let start = bytes.count
        bytes.appendLittleEndian(option.tag.rawValue)
        bytes.appendLittleEndian(UInt16(size))
        switch option {
        case .demo(let demo):
            bytes.appendLittleEndian(demo.controlStateWord)
            bytes.appendLittleEndian(demo.batteryPercent)
            bytes.appendFloat32(demo.thetaMillidegrees)
            bytes.appendFloat32(demo.phiMillidegrees)
            bytes.appendFloat32(demo.psiMillidegrees)
            bytes.appendLittleEndian(demo.altitudeMillimeters)
            bytes.appendVector(demo.bodyVelocityMillimetersPerSecond)
            for index in demo.legacyTrailer.indices { bytes.append(demo.legacyTrailer[index]) }
            bytes.append(contentsOf: demo.extensionBytes)
        case .time(let time):
            bytes.appendLittleEndian(time.time.rawValue)
            bytes.append(contentsOf: time.extensionBytes)
        case .magneto(let magneto):
            bytes.appendVector(magneto.rawCounts)
            bytes.appendVector(magneto.rawMilligauss)
            bytes.appendVector(magneto.rectifiedMilligauss)
            bytes.appendVector(magneto.offsetMilligauss)
            bytes.appendFloat32(magneto.headingUnwrappedDegrees)
            bytes.appendFloat32(magneto.headingGyroUnwrappedDegrees)
            bytes.appendFloat32(magneto.headingFusionUnwrappedDegrees)
            bytes.append(magneto.calibrationOKByte)
            bytes.appendLittleEndian(magneto.magnetoState)
            bytes.appendFloat32(magneto.radius)
            bytes.appendFloat32(magneto.errorMean)
            bytes.appendFloat32(magneto.errorVariance)
            bytes.append(contentsOf: magneto.extensionBytes)
        case .gps(let gps):
            appendGPS(gps, to: &bytes)
        case .raw(let raw):
            bytes.append(contentsOf: raw.payload)
        }
        assert(bytes.count - start == size, "navdata option \(option.tag.rawValue) encoded to the wrong size")
    }

    private static func appendGPS(_ gps: NavdataGPS, to bytes: inout [UInt8]) {
        bytes.appendFloat64(gps.latitudeDegrees)
        bytes.appendFloat64(gps.longitudeDegrees)
        bytes.appendFloat64(gps.elevationMeters)
        bytes.appendFloat64(gps.hdop)
        bytes.appendLittleEndian(gps.dataAvailable)
        bytes.appendLittleEndian(gps.zeroValidatedFlag)
        bytes.appendLittleEndian(gps.waypointValidatedFlag)
        bytes.appendFloat64(gps.latitude0Degrees)
        bytes.appendFloat64(gps.longitude0Degrees)
        bytes.appendFloat64(gps.latitudeFusedDegrees)
        bytes.appendFloat64(gps.longitudeFusedDegrees)
        bytes.appendLittleEndian(gps.gpsState)
        for term in gps.waypointControllerTerms { bytes.appendFloat32(term) }
        bytes.appendFloat64(gps.vdop)
        bytes.appendFloat64(gps.pdop)
        bytes.appendFloat32(gps.speed)
        bytes.appendLittleEndian(gps.lastFrameTimestamp.rawValue)
        bytes.appendFloat32(gps.degree)
        bytes.appendFloat32(gps.degreeMagnetic)
        bytes.appendFloat32(gps.ehpe)
        bytes.appendFloat32(gps.ehve)
        bytes.appendFloat32(gps.carrierToNoise)
        bytes.appendLittleEndian(gps.satelliteCount)
        for channel in gps.channels {
            bytes.append(channel.satelliteID)
            bytes.append(channel.carrierToNoise)
        }
        bytes.appendLittleEndian(gps.gpsPluggedFlag)
        bytes.appendLittleEndian(gps.ephemerisStatus)
        bytes.appendFloat32(gps.vxTraj)
        bytes.appendFloat32(gps.vyTraj)
        bytes.appendLittleEndian(gps.firmwareStatus)
    }
}
