// libFuzzer entry point of the `pave` target (built by scripts/fuzz.sh; docs/fuzzing.md). The property
// is FuzzProperty.pave (Sources/Fuzzing), which the unit tests also replay over Fuzz/corpus/pave/.
import Simulation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzProperty.enforce("pave", FuzzProperty.pave(bytes))
    return 0
}
