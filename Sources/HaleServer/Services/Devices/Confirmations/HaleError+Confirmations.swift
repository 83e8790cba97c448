extension HaleError.Code {
    /// The admin API key is missing, malformed, unknown or revoked.
    public static let adminKeyInvalid = Self(rawValue: "ADMIN_KEY_INVALID")
    /// No confirmation with this id belongs to the caller.
    public static let confirmationNotFound = Self(rawValue: "CONFIRMATION_NOT_FOUND")
    /// The confirmation expired before it was answered.
    public static let confirmationExpired = Self(rawValue: "CONFIRMATION_EXPIRED")
    /// The confirmation was answered already; an answer counts once.
    public static let confirmationAlreadyAnswered = Self(rawValue: "CONFIRMATION_ALREADY_ANSWERED")
    /// The answer did not come from an active device of the confirmation's account.
    public static let confirmationWrongDevice = Self(rawValue: "CONFIRMATION_WRONG_DEVICE")
    /// The answer's signature is not the device key's over the confirmation's message.
    public static let confirmationSignatureInvalid = Self(rawValue: "CONFIRMATION_SIGNATURE_INVALID")
    /// The account has no active device that could answer a confirmation.
    public static let noActiveDevice = Self(rawValue: "NO_ACTIVE_DEVICE")
}

extension HaleError {
    /// The 401 for a missing or invalid admin API key.
    public static let invalidAdminKey = HaleError(
        .adminKeyInvalid, .unauthenticated, message: "A valid admin API key is required: Authorization: Bearer admin.…")
    /// The 404 for a confirmation that does not exist or is another account's.
    public static let confirmationNotFound = HaleError(
        .confirmationNotFound, .notFound, message: "No such confirmation.")
    /// The 410 for answering an expired confirmation.
    public static let confirmationExpired = HaleError(
        .confirmationExpired, .gone, message: "The confirmation expired before it was answered.")
    /// The 409 for answering a confirmation twice.
    public static let confirmationAlreadyAnswered = HaleError(
        .confirmationAlreadyAnswered, .conflict, message: "The confirmation was already answered.")
    /// The 403 for an answer from a device that may not answer.
    public static let confirmationWrongDevice = HaleError(
        .confirmationWrongDevice, .forbidden,
        message: "Only an active device of the account, signed in on that device, can answer.")
    /// The 401 for an answer whose signature does not verify.
    public static let confirmationSignatureInvalid = HaleError(
        .confirmationSignatureInvalid, .unauthenticated,
        message: "The signature is not the device key's over this confirmation and decision.")
    /// The 409 for a confirmation to an account without an active device.
    public static let noActiveDevice = HaleError(
        .noActiveDevice, .conflict, message: "The account has no active device to confirm on.")
}
