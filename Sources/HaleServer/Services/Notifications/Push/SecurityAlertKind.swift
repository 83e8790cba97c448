/// The security events that alert the account's other devices, as the `alertKind` data field names them.
public enum SecurityAlertKind: String, Sendable, CaseIterable {
    /// A device registered a hardware key.
    case newDevice = "new_device"
    /// A passkey was added to the account.
    case newPasskey = "new_passkey"
    /// A passkey was removed from the account.
    case passkeyRemoved = "passkey_removed"
    /// A spent refresh token was presented again and its session revoked.
    case refreshTokenReuse = "refresh_token_reuse"
    /// A session bound to this app instance was refreshed from somewhere else, and ended.
    case boundRefreshRefused = "bound_refresh_refused"
    /// A device was deactivated.
    case deviceDeactivated = "device_deactivated"
    /// A device was deleted.
    case deviceDeleted = "device_deleted"
    /// A social identity was linked to the account through the email its provider verified.
    case signInMethodLinked = "sign_in_method_linked"
    /// A device signed in from a network it had not used before.
    case newSignInNetwork = "new_sign_in_network"
    /// A sign-in with a passkey or a social identity from an app installation new to the account.
    case newSignInDevice = "new_sign_in_device"
    /// A passkey signed in in a way only a copy of it could: its counter went back, or its backup eligibility
    /// changed.
    case passkeyCloneSuspected = "passkey_clone_suspected"
    /// The account's recovery codes were made again.
    case recoveryCodesCreated = "recovery_codes_created"
    /// A recovery code was used to get into the account.
    case recoveryCodeUsed = "recovery_code_used"
    /// Signing out everywhere removed the passkeys and device keys added in the last hours.
    case recentCredentialsRemoved = "recent_credentials_removed"
    /// An email address was verified and added to the account.
    case emailAddressAdded = "email_address_added"
    /// An email address was removed from the account.
    case emailAddressRemoved = "email_address_removed"
    /// A recovery of the account was started and waits `recovery.emailDelay`; any signed-in device may cancel it.
    case recoveryRequested = "recovery_requested"
    /// A device of the account approved a recovery.
    case recoveryApproved = "recovery_approved"
    /// A waiting recovery was cancelled.
    case recoveryCancelled = "recovery_cancelled"
    /// A recovery by email or by an operator opened a recovery session.
    case accountRecovered = "account_recovered"
    /// Someone signed in with a code mailed to a verified address.
    case emailSignIn = "email_sign_in"

    /// The alert's title.
    var title: String {
        switch self {
        case .newDevice: "New device added"
        case .newPasskey: "New passkey added"
        case .passkeyRemoved: "A passkey was removed"
        case .refreshTokenReuse: "A session was ended"
        case .boundRefreshRefused: "A session was ended: its sign-in was used on another device"
        case .deviceDeactivated: "A device was deactivated"
        case .deviceDeleted: "A device was removed"
        case .signInMethodLinked: "A sign-in method was added"
        case .newSignInNetwork: "Sign-in from a new network"
        case .newSignInDevice: "Sign-in on a new device"
        case .passkeyCloneSuspected: "A passkey may have been copied"
        case .recoveryCodesCreated: "New recovery codes were made"
        case .recoveryCodeUsed: "A recovery code was used"
        case .recentCredentialsRemoved: "Recently added passkeys and devices were removed"
        case .emailAddressAdded: "An email address was added"
        case .emailAddressRemoved: "An email address was removed"
        case .recoveryRequested: "Someone started to recover your account"
        case .recoveryApproved: "A recovery of your account was approved"
        case .recoveryCancelled: "A recovery of your account was cancelled"
        case .accountRecovered: "Your account was recovered"
        case .emailSignIn: "Signed in with an email code"
        }
    }

    /// Whether the alert is mailed to the account's addresses as it is pushed. Changes of address are not: their
    /// service mails the addresses concerned itself, naming the address (`EmailAddresses`).
    var isMailed: Bool {
        self != .emailAddressAdded && self != .emailAddressRemoved
    }

    /// The alert an audit event raises, if any.
    init?(_ event: AuditEventType) {
        switch event {
        case .deviceRegistered: self = .newDevice
        case .passkeyRegistered: self = .newPasskey
        case .passkeyDeleted: self = .passkeyRemoved
        case .refreshTokenReuseDetected: self = .refreshTokenReuse
        case .boundRefreshRefused: self = .boundRefreshRefused
        case .deviceDeactivated: self = .deviceDeactivated
        case .deviceDeleted: self = .deviceDeleted
        case .socialIdentityLinked: self = .signInMethodLinked
        case .deviceKeyNewIpRange: self = .newSignInNetwork
        case .newDeviceSignIn: self = .newSignInDevice
        case .passkeyCloneSuspected: self = .passkeyCloneSuspected
        case .recoveryCodesCreated: self = .recoveryCodesCreated
        case .recoveryCodeUsed: self = .recoveryCodeUsed
        case .emailAddressAdded: self = .emailAddressAdded
        case .emailAddressRemoved: self = .emailAddressRemoved
        case .accountRecoveryRequested: self = .recoveryRequested
        case .accountRecoveryApproved: self = .recoveryApproved
        case .accountRecoveryCancelled: self = .recoveryCancelled
        case .accountRecovered: self = .accountRecovered
        case .emailSignIn: self = .emailSignIn
        default: return nil
        }
    }
}
