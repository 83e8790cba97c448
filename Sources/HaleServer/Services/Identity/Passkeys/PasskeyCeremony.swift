import ByteEncoding
import Foundation
import WebAuthn

/// What a registration ceremony needs back when it completes, kept in its server challenge.
struct PendingRegistration: Codable, Sendable {
    /// A passkey-first sign-up: the account to create once a passkey verifies.
    struct SignUp: Codable, Sendable {
        let displayName: String
        let email: String?
    }

    let userHandle: String
    let signUp: SignUp?
    let device: PasskeyDevice?
}

/// The challenge a client signed, read from its `clientDataJSON`, in canonical base64url so it matches the value
/// issued whether or not the client padded it.
enum SignedChallenge {
    static func value(inClientData encodedClientData: String) -> (text: String, bytes: [UInt8])? {
        guard let clientData = Base64URL.decode(encodedClientData),
            let parsed = try? CollectedClientData(bytes: Array(clientData)),
            let bytes = Base64URL.decode(parsed.challenge)
        else {
            return nil
        }
        return (Base64URL.encode(bytes), Array(bytes))
    }
}
