// libFuzzer entry point of the `navdata` target (built by scripts/fuzz.sh; docs/fuzzing.md). The property
// is FuzzProperty.navdata (Sources/Fuzzing), which the unit tests also replay over Fuzz/corpus/navdata/.
import Simulation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzProperty.enforce("navdata", FuzzProperty.navdata(bytes))
    return 0
}
