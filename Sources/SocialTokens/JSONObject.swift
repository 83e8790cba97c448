import StrictJSON

/// Decodes a JSON object, the only top-level shape a JOSE header, JWT claims set, JWK Set or Graph answer may have.
enum JSONObject {
    /// The members of the object `bytes` holds, or nil when it is not UTF-8 JSON with an object at the top. Read by
    /// `JSONParser`, in one pass, before any signature is checked: its limits are what bounds an attacker's cost.
    static func decode(_ bytes: [UInt8]) -> [String: JSONValue]? {
        guard case .object(let members)? = try? JSONParser.parse(bytes) else { return nil }
        return members
    }
}
