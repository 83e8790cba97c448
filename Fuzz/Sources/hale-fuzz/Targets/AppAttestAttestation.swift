import CBOR
import DeviceIntegrity
import WebAuthn

extension FuzzTarget {
    /// `Sources/DeviceIntegrity/AppAttest`: an attestation object verified in full, at a time its leaf certificate is
    /// valid, with the key ID its authenticator data names. Inputs: the attestation object's CBOR, then optionally
    /// the client data hash (by default the development fixtures').
    static let appAttestAttestation = FuzzTarget(name: "app-attest-attestation") { bytes in
        let parts = FuzzInput.parts(bytes[...])
        let attestation = Array(parts[0])
        let value = try? CBORDecoder(maximumDepth: 8, maximumLength: 65_536).decode(attestation)
        let keyID =
            value?["authData"]?.bytes.flatMap {
                try? AuthenticatorData(bytes: $0, accepting: .appAttest).attestedCredentialData?.credentialID
            } ?? [UInt8](repeating: 0, count: 32)
        let clientDataHash = parts[ifPresent: 1].map(Array.init) ?? FuzzAppAttest.clientDataHash
        let verifier = FuzzAppAttest.verifier(for: value)
        let time = FuzzAppAttest.verificationTime(for: value)
        Blocking.run {
            _ = try? await verifier.verifyAttestation(
                attestation, keyID: keyID, clientDataHash: clientDataHash, at: time)
        }
    }
}
