// libFuzzer entry point of the `gpsd-json` target (built by scripts/fuzz.sh; docs/fuzzing.md): gpsd JSON
// lines through libgps' gps_unpack into gps_data_t, then GPSDataMapper. The property is
// GPSDataMapper.fuzzViolation(jsonLines:) (Sources/Links/GPS), which LinksTests also replays over
// Fuzz/corpus/gpsd-json/.
import Simulation
import Links

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzProperty.enforce("gpsd-json", GPSDataMapper.fuzzViolation(jsonLines: bytes))
    return 0
}
