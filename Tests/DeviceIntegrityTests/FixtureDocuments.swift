import Foundation
import Testing

/// The top-level `key: value` scalars of each document of a YAML stream, which is all the fixtures need: nested
/// blocks (`publicKey: |`, `properties:`) are skipped, and single-quoted scalars are unquoted.
enum FixtureDocuments {
    static func parse(_ text: String) -> [[String: String]] {
        var documents: [[String: String]] = []
        var current: [String: String] = [:]
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "---" {
                if !current.isEmpty { documents.append(current) }
                current = [:]
            } else if let first = line.first, first != " ", let colon = line.firstIndex(of: ":") {
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                current[String(line[..<colon])] = value.trimmingCharacters(in: CharacterSet(charactersIn: "'"))
            }
        }
        if !current.isEmpty { documents.append(current) }
        return documents
    }

    /// The text of the fixture file `name`.
    static func text(_ name: String) throws -> String {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil))
        return try String(contentsOf: url, encoding: .utf8)
    }
}
