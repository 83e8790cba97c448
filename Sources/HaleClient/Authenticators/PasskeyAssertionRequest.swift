import Foundation
import WebAuthn

/// What the platform's passkey API needs to sign in: the server's `RequestOptions`, decoded from base64url.
public struct PasskeyAssertionRequest: Sendable, Equatable {
    /// The RP ID, such as `example.com`.
    public var relyingPartyID: String
    /// The challenge.
    public var challenge: Data
    /// The credential IDs that may answer; empty lets the person pick any passkey for the RP.
    public var allowedCredentialIDs: [Data]
    /// Whether to verify the user.
    public var userVerification: UserVerificationRequirement

    /// Decodes `options`; throws `PlatformAdapterError.malformedOptions` naming a member that is not base64url.
    public init(_ options: RequestOptions) throws(PlatformAdapterError) {
        relyingPartyID = options.rpId
        challenge = try PlatformAdapterError.decode(options.challenge, member: "challenge")
        allowedCredentialIDs = try options.allowCredentials.map { descriptor throws(PlatformAdapterError) in
            try PlatformAdapterError.decode(descriptor.id, member: "allowCredentials.id")
        }
        userVerification = options.userVerification
    }
}
