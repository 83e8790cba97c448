import Foundation
import Yams

/// The OpenAPI 3.1 document, kept as YAML in the package's resources and served as JSON.
enum OpenAPIDocument {
    private static let cache: Result<Data, any Error> = Result {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else {
            throw ConfigError("the OpenAPI document is missing from the package resources")
        }
        let yaml = try String(contentsOf: url, encoding: .utf8)
        guard let tree = try Yams.load(yaml: yaml) else { throw ConfigError("the OpenAPI document is empty") }
        return try JSONSerialization.data(withJSONObject: tree, options: [.sortedKeys])
    }

    /// The document as JSON.
    static func json() throws -> Data {
        try cache.get()
    }
}
