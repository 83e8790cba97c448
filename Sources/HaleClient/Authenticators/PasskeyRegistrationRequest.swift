import Foundation
import WebAuthn

/// What the platform's passkey API needs to create a passkey: the server's `CreationOptions`, decoded from base64url.
public struct PasskeyRegistrationRequest: Sendable, Equatable {
    /// The RP ID, such as `example.com`.
    public var relyingPartyID: String
    /// The challenge.
    public var challenge: Data
    /// The opaque user handle.
    public var userID: Data
    /// The account name, such as an email address.
    public var userName: String
    /// The friendly name.
    public var displayName: String
    /// The credential IDs the user already has, so the platform does not create a second passkey.
    public var excludedCredentialIDs: [Data]
    /// Whether to verify the user.
    public var userVerification: UserVerificationRequirement

    /// Decodes `options`; throws `PlatformAdapterError.malformedOptions` naming a member that is not base64url.
    public init(_ options: CreationOptions) throws(PlatformAdapterError) {
        relyingPartyID = options.rp.id
        challenge = try PlatformAdapterError.decode(options.challenge, member: "challenge")
        userID = try PlatformAdapterError.decode(options.user.id, member: "user.id")
        userName = options.user.name
        displayName = options.user.displayName
        excludedCredentialIDs = try options.excludeCredentials.map { descriptor throws(PlatformAdapterError) in
            try PlatformAdapterError.decode(descriptor.id, member: "excludeCredentials.id")
        }
        userVerification = options.authenticatorSelection.userVerification
    }
}
