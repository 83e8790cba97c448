import ByteEncoding
import Foundation
import WebAuthn

/// Why a platform adapter (passkeys, a Secure Enclave key, App Attest, HealthKit) could not do what was asked.
public enum PlatformAdapterError: Error, Sendable, Equatable {
    /// The person dismissed the system sheet or the biometric prompt.
    case cancelled
    /// The device cannot do this, such as App Attest on a simulator or HealthKit on an iPad without Health.
    case unavailable(String)
    /// A member of the server's options is not base64url.
    case malformedOptions(String)
    /// The platform answered with another kind of credential than was asked for, or without a part Hale needs.
    case unexpectedCredential
    /// No device key has the keychain tag asked for.
    case keyNotFound
    /// The keychain answered with this `OSStatus`.
    case keychain(status: Int32)

    /// Decodes the base64url `text` of the options member `member`.
    static func decode(_ text: String, member: String) throws(PlatformAdapterError) -> Data {
        guard let bytes = Base64URL.decode(text) else { throw .malformedOptions("\(member) is not base64url") }
        return bytes
    }
}
