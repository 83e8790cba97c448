import ByteEncoding
import Crypto
import Foundation
import Logging

/// Device attestation as session binding needs it (`tokens.bindToAttestation`).
extension DeviceAttestation: AttestedInstances {
    func newestKey(of account: AccountID, on device: DeviceID) async throws -> AttestedInstanceKey? {
        let keys = try await keys.keys(of: account, limit: Self.keyLimit)
        return keys.first { $0.deviceId == device && usable($0) }.flatMap(Self.instanceKey)
    }

    func keys(of account: AccountID) async throws -> [AppAttestKey] {
        try await keys.keys(of: account, limit: Self.keyLimit)
    }

    func check(_ assertion: String, over requestHash: String, among keys: [AppAttestKey], logger: Logger)
        async throws -> AttestedAssertion?
    {
        guard let bytes = Data(base64Encoded: assertion),
            let (key, counter) = try await check([UInt8](bytes), nonce: requestHash, among: keys, logger: logger),
            let instance = Self.instanceKey(key)
        else {
            return nil
        }
        return AttestedAssertion(instance: instance, row: key.id, previousCounter: key.counter, counter: counter)
    }

    func checkPlayIntegrity(_ token: String, over requestHash: String, logger: Logger) async -> String? {
        guard let playIntegrity else { return nil }
        do {
            return try playIntegrity.verify(token, nonce: requestHash, at: clock.now()).app.packageName
        } catch {
            logger.info("refresh's Play Integrity token refused", metadata: ["reason": "\(error.code)"])
            return nil
        }
    }

    /// The key as a session is bound to it: its id and its public key's RFC 7638 thumbprint.
    static func instanceKey(_ key: AppAttestKey) -> AttestedInstanceKey? {
        publicKey(of: key).map { AttestedInstanceKey(id: key.keyId, thumbprint: thumbprint(of: $0)) }
    }

    /// RFC 7638: base64url of SHA-256 over the JWK's required members in lexicographic order, without white space.
    static func thumbprint(of key: P256.Signing.PublicKey) -> String {
        let point = Array(key.x963Representation)  // 0x04 ‖ x ‖ y
        let x = Base64URL.encode(point[1..<33])
        let y = Base64URL.encode(point[33..<65])
        let jwk = #"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#
        return Base64URL.encode(SHA256.hash(data: Data(jwk.utf8)))
    }
}
