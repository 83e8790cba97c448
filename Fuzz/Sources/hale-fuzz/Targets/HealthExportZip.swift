import Foundation
import HealthExport

extension FuzzTarget {
    /// `Sources/HealthExport/ExportFile.swift`: an `export.zip` read as the import reads an upload, from a file (the
    /// path production takes: ZIPFoundation's in-memory archives trap on a seek past their end, which a file does
    /// not), with a limit of 1 MiB of XML, its XML fed to the reader in the chunks the archive inflates to. The seeds
    /// hold a real-shaped archive and one whose entry inflates past the limit.
    static let healthExportZip = FuzzTarget(name: "health-export-zip") { bytes in
        do {
            try Data(bytes).write(to: zipFile)
        } catch {
            return
        }
        var reader = AppleHealthExportReader()
        do {
            try ExportFile.read(zipFile, limit: 1 << 20) { data, _ in
                try reader.feed(data) { event in
                    guard case .record(let record) = event, case .success(let sample) = ImportedSample.from(record)
                    else { return }
                    _ = sample.identity
                }
            }
            try reader.finish()
        } catch {
            return
        }
    }

    /// One file per fuzzing process, written again for each input.
    private static let zipFile = FileManager.default.temporaryDirectory
        .appendingPathComponent("hale-fuzz-\(ProcessInfo.processInfo.processIdentifier).zip")
}
