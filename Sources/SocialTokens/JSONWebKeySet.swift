/// A provider's JWK Set (RFC 7517 §5), keeping the keys this library can verify with and skipping the rest.
struct JSONWebKeySet: Sendable {
    /// The usable keys by `kid`; when two keys share a `kid`, the first is kept.
    let keys: [String: JSONWebKey]

    /// Reads a JWK Set document; nil unless it is a JSON object whose `keys` is an array. Members of `keys` that are
    /// not usable signature keys are skipped, not fatal (RFC 7517 §5: "implementations SHOULD ignore JWKs within a
    /// JWK Set that use "kty" values that are not understood").
    init?(json bytes: [UInt8]) {
        guard case .array(let members) = JSONObject.decode(bytes)?["keys"] else { return nil }
        var keys: [String: JSONWebKey] = [:]
        for member in members {
            guard let object = member.object, let key = JSONWebKey(object), keys[key.keyID] == nil else { continue }
            keys[key.keyID] = key
        }
        self.keys = keys
    }

    /// A set of the given keys.
    init(keys: [String: JSONWebKey]) {
        self.keys = keys
    }

    /// The key with `kid`, if the set holds a usable one.
    subscript(keyID: String) -> JSONWebKey? {
        keys[keyID]
    }
}
