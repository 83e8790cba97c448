/// What a mail says, as the outbox keeps it: the words are chosen when it is sent (`MailContent`).
enum MailKind: String, Sendable, CaseIterable {
    /// A one-time code; `data` holds `code` and `purpose`.
    case emailCode = "email_code"
    /// Someone asked for a code for this address, which is another account's: no code is sent.
    case addressInUse = "address_in_use"
    /// Someone asked to sign in or recover with this address, which no account has verified: no code is sent.
    case noAccount = "no_account"
    /// An address was added to the account; sent to its other addresses. `data` holds `address`.
    case addressAdded = "address_added"
    /// This address was removed from the account. `data` holds `address`.
    case addressRemoved = "address_removed"
    /// A security event on the account; `data` holds `alertKind` and `occurredAt`.
    case securityAlert = "security_alert"

    /// The kinds a person can make Hale send by asking, counted against `email.codesPerAddress`, so that nobody can
    /// bomb an address with them.
    static let requested: [MailKind] = [.emailCode, .addressInUse, .noAccount]
}
