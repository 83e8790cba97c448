import HealthExport

extension FuzzTarget {
    /// `Sources/HealthExport`: an Apple Health export's XML, fed to the reader in chunks whose size the first byte
    /// chooses (1 to 256), each record mapped to a sample and its identity as the import does.
    static let healthExport = FuzzTarget(name: "health-export") { bytes in
        guard let first = bytes.first else { return }
        let size = Int(first) + 1
        let xml = bytes.dropFirst()
        var reader = AppleHealthExportReader()
        var start = xml.startIndex
        do {
            while start < xml.endIndex {
                let end = xml.index(start, offsetBy: size, limitedBy: xml.endIndex) ?? xml.endIndex
                try reader.feed(xml[start..<end]) { event in
                    guard case .record(let record) = event, case .success(let sample) = ImportedSample.from(record)
                    else { return }
                    _ = sample.identity
                    _ = sample.start.iso8601
                }
                start = end
            }
            try reader.finish()
        } catch {
            return
        }
    }
}
