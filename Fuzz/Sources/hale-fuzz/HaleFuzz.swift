import Foundation

/// libFuzzer calls this once per input and runs the target that `HALE_FUZZ_TARGET` names.
///
/// One executable serves every target, rather than one per target: each would link the whole dependency graph
/// (Vapor and Fluent among it, for the server's readers) again, and CI's budget goes on building, not linking. The
/// target is chosen at startup, so each run still fuzzes one parser with its own corpus and dictionary.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzTarget.selected.run(bytes)
    return 0
}

/// The executable's entry point. SwiftPM links an executable target's `main` to `<module>_main`, which takes the
/// place of libFuzzer's own `main`, so this hands the arguments to libFuzzer's driver.
@_cdecl("hale_fuzz_main")
public func haleFuzzMain(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, testOneInput)
}

/// `int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t))`, from libFuzzer.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
