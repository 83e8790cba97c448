import Foundation

/// Decodes a JSON object, the only top-level shape a JOSE header, JWT claims set, JWK Set or Graph answer may have.
enum JSONObject {
    /// The members of the object `bytes` holds, or nil when it is not UTF-8 JSON with an object at the top.
    static func decode(_ bytes: [UInt8]) -> [String: JSONValue]? {
        try? JSONDecoder().decode([String: JSONValue].self, from: Data(bytes))
    }
}
