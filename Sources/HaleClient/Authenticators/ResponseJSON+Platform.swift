import ByteEncoding
import Foundation
import WebAuthn

extension RegistrationResponseJSON {
    /// The JSON for a passkey the platform created, from the raw bytes it returns.
    public init(
        platformCredentialID credentialID: Data, clientDataJSON: Data, attestationObject: Data,
        attachment: PasskeyAttachment
    ) {
        let id = Base64URL.encode(credentialID)
        self.init(
            id: id, rawId: id, type: "public-key",
            response: Response(
                clientDataJSON: Base64URL.encode(clientDataJSON),
                attestationObject: Base64URL.encode(attestationObject), transports: attachment.transports),
            authenticatorAttachment: attachment.rawValue)
    }
}

extension AuthenticationResponseJSON {
    /// The JSON for a platform passkey's signature, from the raw bytes it returns; an empty user handle is left out.
    public init(
        platformCredentialID credentialID: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data,
        userHandle: Data?, attachment: PasskeyAttachment
    ) {
        let id = Base64URL.encode(credentialID)
        let handle = userHandle.flatMap { $0.isEmpty ? nil : Base64URL.encode($0) }
        self.init(
            id: id, rawId: id, type: "public-key",
            response: Response(
                clientDataJSON: Base64URL.encode(clientDataJSON),
                authenticatorData: Base64URL.encode(authenticatorData),
                signature: Base64URL.encode(signature), userHandle: handle),
            authenticatorAttachment: attachment.rawValue)
    }
}
