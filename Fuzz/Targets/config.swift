// libFuzzer entry point of the `config` target (built by scripts/fuzz.sh; docs/fuzzing.md). The property
// is FuzzProperty.config (Sources/Fuzzing), which the unit tests also replay over Fuzz/corpus/config/.
import Simulation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzProperty.enforce("config", FuzzProperty.config(bytes))
    return 0
}
