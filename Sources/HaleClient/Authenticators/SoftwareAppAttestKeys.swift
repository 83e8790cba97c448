import Crypto
import Foundation

/// The keys of a `SoftwareAppAttester` and how many assertions each has made.
actor SoftwareAppAttestKeys {
    private var keys: [String: (key: P256.Signing.PrivateKey, counter: UInt32)] = [:]

    /// Keys holding `initial`, none of which has made an assertion.
    init(_ initial: [P256.Signing.PrivateKey]) {
        for key in initial { keys[Self.identifier(of: key.publicKey)] = (key, 0) }
    }

    /// Keeps `key`; returns its identifier, base64 of SHA-256 of its X9.63 public key, as App Attest names keys.
    @discardableResult
    func add(_ key: P256.Signing.PrivateKey) -> String {
        let id = Self.identifier(of: key.publicKey)
        keys[id] = (key, 0)
        return id
    }

    /// The key named `id`.
    func key(_ id: String) throws(SoftwareAppAttesterError) -> P256.Signing.PrivateKey {
        guard let entry = keys[id] else { throw .unknownKey }
        return entry.key
    }

    /// The key named `id` and its next assertion's counter, which this call uses up: 1 for the first.
    func nextAssertion(_ id: String) throws(SoftwareAppAttesterError) -> (P256.Signing.PrivateKey, UInt32) {
        guard let entry = keys[id] else { throw .unknownKey }
        let counter = entry.counter + 1
        keys[id] = (entry.key, counter)
        return (entry.key, counter)
    }

    static func identifier(of key: P256.Signing.PublicKey) -> String {
        Data(SHA256.hash(data: key.x963Representation)).base64EncodedString()
    }
}
