extension HaleError.Code {
    /// A device-key signature did not verify, or came from no registered device; the two are not told apart.
    public static let signatureFailed = Self(rawValue: "SIGNATURE_FAILED")
    /// The device named is not one of the account's active devices, or no device signs in under the fingerprint.
    public static let deviceNotRegistered = Self(rawValue: "DEVICE_NOT_REGISTERED")
    /// The public key a device sent is not one Hale accepts.
    public static let invalidPublicKey = Self(rawValue: "INVALID_PUBLIC_KEY")
    /// A refresh failed in a way the app should answer by signing in again: the session was revoked after reuse.
    public static let refreshFailed = Self(rawValue: "REFRESH_FAILED")
}

extension HaleError {
    /// The one 401 for every failed device-key sign-in, so accounts and devices cannot be enumerated.
    static let deviceSignInFailed = HaleError(
        .signatureFailed, .unauthenticated, message: "The signature could not be verified for a registered device.")

    /// The 404 at a sign-in challenge for a fingerprint no active device key is registered under: seed 002's app
    /// offers to register the device.
    static let noDeviceUnderFingerprint = HaleError(
        .deviceNotRegistered, .notFound,
        message: "This device is not registered for biometric authentication. Register it first.")

    /// The 404 for a device that is not one of the account's.
    static let deviceNotRegistered = HaleError(
        .deviceNotRegistered, .notFound, message: "No such device is registered to this account.")
}
