import Foundation
import HealthExport

extension FuzzTarget {
    /// `Sources/HealthExport/ExportFile.swift`: an `export.zip`, read from memory with a limit of 1 MiB of XML, as
    /// the import reads an upload, its XML fed to the reader in the chunks the archive inflates to. The seeds hold a
    /// real-shaped archive and one whose entry inflates past the limit.
    static let healthExportZip = FuzzTarget(name: "health-export-zip") { bytes in
        var reader = AppleHealthExportReader()
        do {
            try ExportFile.read(zip: Data(bytes), limit: 1 << 20) { data, _ in
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
}
