import ByteEncoding
import Crypto

/// Verifies an authentication ceremony as WebAuthn Level 3 §7.2 says. Pure: the caller finds the stored credential
/// by the response's `id` and checks that the returned user handle, if any, is the credential's user.
public struct AuthenticationVerifier: Sendable {
    /// The relying party.
    public let relyingParty: RelyingParty

    /// A verifier for `relyingParty`.
    public init(relyingParty: RelyingParty) {
        self.relyingParty = relyingParty
    }

    /// Verifies `response` from `credential` against the challenge the server issued.
    ///
    /// A sign-in whose signature verifies but that shows a sign of a cloned authenticator (`CloneSignal`) is refused
    /// with that signal's error, or, with `cloneSignals: .report`, returned with the signal for the caller to act
    /// on. Either way it is looked for only once the signature holds, so a forged response cannot raise it.
    public func verify(
        _ response: AuthenticationResponseJSON, expectedChallenge: [UInt8], credential: StoredCredential,
        requireUserVerification: Bool, cloneSignals: CloneSignalHandling = .refuse
    ) throws(WebAuthnError) -> VerifiedAuthentication {
        // §7.2 steps 5–7: the credential is the one the caller looked up.
        let credentialID = try Base64URL.credentialID(id: response.id, rawId: response.rawId, type: response.type)
        guard ConstantTime.equals(credentialID, credential.id) else {
            throw WebAuthnError(.invalidCredentialID, "the response names another credential")
        }
        let clientDataBytes = try Base64URL.member(response.response.clientDataJSON, "clientDataJSON")
        let authenticatorData = try AuthenticatorData(
            bytes: try Base64URL.member(response.response.authenticatorData, "authenticatorData"))
        let signature = try Base64URL.member(response.response.signature, "signature")
        let userHandle = try response.response.userHandle.map { text throws(WebAuthnError) in
            try Base64URL.member(text, "userHandle")
        }
        // Steps 10–14: the client data.
        try CollectedClientData(bytes: clientDataBytes).verify(
            type: "webauthn.get", challenge: expectedChallenge, origins: relyingParty.origins)
        // Steps 15–18: RP ID hash and flags; backup eligibility is fixed for the credential's life.
        try FlagChecks.verify(
            authenticatorData, rpIDHash: relyingParty.idHash, requireUserVerification: requireUserVerification)
        // Steps 20–21: the signature over authenticatorData ‖ SHA-256(clientDataJSON).
        let publicKey = try COSEKey(bytes: credential.publicKey)
        let clientDataHash = Array(SHA256.hash(data: clientDataBytes))
        guard publicKey.isValidSignature(signature, over: authenticatorData.bytes, clientDataHash) else {
            throw WebAuthnError(.invalidSignature, "the signature does not verify")
        }
        // Steps 18 and 22, on a signature that holds: backup eligibility is fixed for the credential's life, and
        // the counter must grow unless the authenticator keeps none (both zero).
        let signal = CloneSignal(authenticatorData, credential)
        if let signal, cloneSignals == .refuse { throw signal.error }
        return VerifiedAuthentication(
            credentialID: credentialID, signCount: authenticatorData.signCount,
            userVerified: authenticatorData.flags.contains(.userVerified),
            backupEligible: authenticatorData.flags.contains(.backupEligible),
            backupState: authenticatorData.flags.contains(.backupState), userHandle: userHandle, cloneSignal: signal)
    }
}
