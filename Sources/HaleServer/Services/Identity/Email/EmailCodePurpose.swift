/// What an email code is for; a code made for one purpose is never accepted for another.
enum EmailCodePurpose: String, Sendable, CaseIterable {
    /// Proving the address belongs to the person adding it.
    case verifyAddress = "verify_address"
    /// Starting the recovery of the account that verified the address.
    case recoverAccount = "recover_account"
    /// Signing in to the account that verified the address, without a passkey or device key.
    case signIn = "sign_in"
    /// Proving, on a session of an account with nothing but the address, that the person is there.
    case stepUp = "step_up"

    /// How the mail words it: "Your Hale code to verify this address is: …".
    var phrase: String {
        switch self {
        case .verifyAddress: "to verify this address"
        case .recoverAccount: "to recover your account"
        case .signIn: "to sign in"
        case .stepUp: "to confirm a change to your account"
        }
    }
}
