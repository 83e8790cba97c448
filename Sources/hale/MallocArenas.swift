import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// glibc's allocator gives each thread that allocates at once an arena of its own, up to eight per core, and memory
/// freed in one arena is never reused by another: an import, whose reading thread allocates what the event loops
/// free, grew `hale serve` to 390 MB where two arenas held it to 180 MB (`hale bench import-memory`,
/// docs/records/2026-11-28-import-memory.md). So `hale` uses as many arenas as cores, unless `MALLOC_ARENA_MAX` says otherwise.
enum MallocArenas {
    /// glibc's `M_ARENA_MAX`, a macro of `malloc.h`, which Swift's Glibc module does not bring in.
    private static let arenaMaximum: Int32 = -8

    /// Caps the arenas before any thread is made; a no-op where the allocator is not glibc's.
    static func limit(environment: [String: String] = ProcessInfo.processInfo.environment) {
        #if canImport(Glibc)
            guard environment["MALLOC_ARENA_MAX"] == nil, let symbol = dlsym(nil, "mallopt") else { return }
            // `mallopt` is glibc's `int mallopt(int param, int value)`; `malloc.h` is not in Swift's Glibc module.
            let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
            _ = mallopt(arenaMaximum, Int32(max(2, ProcessInfo.processInfo.activeProcessorCount)))
        #endif
    }
}
