import Foundation

/// Makes App Attest keys, attestations and assertions, as `DCAppAttestService` does: the device's own service on
/// an Apple platform, or `SoftwareAppAttester` against a server in development attestation mode.
public protocol AppAttester: Sendable {
    /// Creates a key; returns its identifier, the base64 SHA-256 of its public key.
    func generateKey() async throws -> String
    /// Attests the key `keyID` with `clientDataHash`; returns the attestation object.
    func attestKey(_ keyID: String, clientDataHash: Data) async throws -> Data
    /// Signs `clientDataHash` with the key `keyID`, counting the assertion; returns the assertion object.
    func generateAssertion(_ keyID: String, clientDataHash: Data) async throws -> Data
}
