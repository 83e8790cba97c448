import Foundation

/// An account's verified email addresses: added by proving a code mailed to the address, or vouched for by the
/// provider a person signed in with. A verified address belongs to one account.
///
/// Asking for a code answers the same whatever the address: an address that is another account's gets a mail saying
/// so instead of a code, and the code can then never be right. The mails a person can make Hale send are capped per
/// address and per account, counted in the database so every instance shares them; the client's network has its own
/// budget (`rateLimits.emailCodesPerIp`).
public struct EmailAddresses: Sendable {
    let repository: any EmailAddressRepository
    let outbox: MailOutbox
    let mails: any MailOutboxRepository
    let audit: AuditTrail
    let limits: Limits
    let clock: HaleClock

    /// How many codes and addresses are allowed.
    public struct Limits: Sendable {
        /// Requested mails (codes and "address in use" notices) to one address in an hour.
        public var codesPerAddress: Int
        /// Codes sent for one account in an hour.
        public var codesPerAccount: Int
        /// Verified addresses one account may have.
        public var addressesPerAccount: Int
    }

    /// What asking for a code answers: the same for every address.
    public struct CodeSent: Sendable, Equatable {
        /// The address, normalized.
        public let address: String
        /// When a code sent now stops working.
        public let expiresAt: Date
    }

    /// The account's verified addresses.
    public func list(of account: AccountID) async throws -> [VerifiedEmail] {
        try await repository.addresses(of: account)
    }

    /// Mails a code that verifies `address` for the account, or, when the address is another account's, a notice
    /// instead; answers the same either way.
    public func requestCode(for address: EmailAddress, account: AccountID) async throws -> CodeSent {
        let now = clock.now()
        let answer = CodeSent(address: address.value, expiresAt: now.addingTimeInterval(EmailCode.lifetime))
        try await admit(address, account: account, at: now)
        // Checked before the address's owner, so that the answer never depends on whose it is.
        guard try await repository.addresses(of: account).count < limits.addressesPerAccount else {
            throw HaleError.limitReached(
                "This account has \(limits.addressesPerAccount) email addresses, the most it may have; "
                    + "remove one to add another.")
        }
        if let owner = try await repository.owner(of: address.value), owner != account {
            try await mails.enqueue([try outbox.message(.addressInUse, to: address, account: nil, data: [:])])
        } else {
            try await issueCode(to: address, account: account, purpose: .verifyAddress, at: now)
        }
        return answer
    }

    /// The account that verified `address`, if any.
    func owner(of address: EmailAddress) async throws -> AccountID? {
        try await repository.owner(of: address.value)
    }

    /// Mails a `purpose` code to the account that verified `address`, or, when none has, a notice instead; answers
    /// the same either way. For signing in and recovering, where the address names the account.
    func requestOwnerCode(for address: EmailAddress, purpose: EmailCodePurpose) async throws -> CodeSent {
        let now = clock.now()
        try await admit(address, account: nil, at: now)
        if let owner = try await repository.owner(of: address.value) {
            try await issueCode(to: address, account: owner, purpose: purpose, at: now)
        } else {
            try await mails.enqueue([try outbox.message(.noAccount, to: address, account: nil, data: [:])])
        }
        return CodeSent(address: address.value, expiresAt: now.addingTimeInterval(EmailCode.lifetime))
    }

    /// Mails a `purpose` code to one of the account's own verified addresses: a 404 for any other address, which is
    /// the account's own business.
    func requestOwnCode(for address: EmailAddress, account: AccountID, purpose: EmailCodePurpose) async throws
        -> CodeSent
    {
        guard try await repository.owner(of: address.value) == account else {
            throw HaleError(.resourceNotFound, .notFound, message: "This account has no such email address.")
        }
        let now = clock.now()
        try await admit(address, account: account, at: now)
        try await issueCode(to: address, account: account, purpose: purpose, at: now)
        return CodeSent(address: address.value, expiresAt: now.addingTimeInterval(EmailCode.lifetime))
    }

    /// Uses a `purpose` code mailed to a verified address, once: the account it names. Every wrong, expired, spent
    /// or exhausted code, and every address no account has verified, is `invalidCode`.
    func redeemOwnerCode(
        _ address: EmailAddress, code: String, purpose: EmailCodePurpose, invalid: HaleError
    ) async throws -> AccountID {
        guard let guess = EmailCode.normalized(code) else {
            throw InvalidInput("code", .form("the 6 digits mailed to the address"))
        }
        let now = clock.now()
        guard let owner = try await repository.owner(of: address.value),
            let stored = try await repository.attempt(
                account: owner, address: address.value, purpose: purpose, at: now,
                maximumAttempts: EmailCode.maximumAttempts),
            EmailCode.matches(guess, id: stored.id, hash: stored.codeHash),
            try await repository.spend(stored.id, at: now)
        else { throw invalid }
        return owner
    }

    /// Verifies the account's address with the code mailed to it: the address as stored. Every wrong, expired,
    /// spent or exhausted code is `EMAIL_CODE_INVALID`, the same answer whatever the reason.
    public func verify(_ address: EmailAddress, code: String, by subject: AuditTrail.Subject) async throws
        -> VerifiedEmail
    {
        guard let guess = EmailCode.normalized(code) else {
            throw InvalidInput("code", .form("the 6 digits mailed to the address"))
        }
        let now = clock.now()
        guard
            let stored = try await repository.attempt(
                account: subject.account, address: address.value, purpose: .verifyAddress, at: now,
                maximumAttempts: EmailCode.maximumAttempts),
            EmailCode.matches(guess, id: stored.id, hash: stored.codeHash)
        else { throw Self.invalidCode }
        let verified = VerifiedEmail(address: address.value, verifiedBy: "code", verifiedAt: now)
        let others = try await repository.addresses(of: subject.account).filter { $0.address != address.value }
        let notices = try others.compactMap({ EmailAddress($0.address) }).map {
            try outbox.message(.addressAdded, to: $0, account: subject.account, data: ["address": address.value])
        }
        let event = audit.prepare(.emailAddressAdded, subject, details: ["verifiedBy": "code"])
        guard
            try await repository.verify(
                verified, of: subject.account, spending: stored.id, at: now, audit: event, notices: notices)
        else { throw Self.invalidCode }
        return verified
    }

    /// Removes the account's address, telling it and the account's other addresses.
    public func remove(_ address: EmailAddress, by subject: AuditTrail.Subject) async throws {
        let all = try await repository.addresses(of: subject.account)
        let notices = try all.compactMap { EmailAddress($0.address) }.map {
            try outbox.message(.addressRemoved, to: $0, account: subject.account, data: ["address": address.value])
        }
        let event = audit.prepare(.emailAddressRemoved, subject)
        guard try await repository.remove(address.value, of: subject.account, audit: event, notices: notices) else {
            throw HaleError(.resourceNotFound, .notFound, message: "This account has no such email address.")
        }
    }

    /// Keeps an address that Google, Apple or Firebase verified for the account, unless another account has it or
    /// the account has as many as it may; when kept, records `email_address_added` and mails the account's other
    /// addresses, as an address verified by code does.
    func adopt(_ address: EmailAddress, verifiedBy provider: String, for account: AccountID) async throws {
        let others = try await repository.addresses(of: account)
        guard others.count < limits.addressesPerAccount, !others.contains(where: { $0.address == address.value })
        else { return }
        let verified = VerifiedEmail(address: address.value, verifiedBy: provider, verifiedAt: clock.now())
        let notices = try others.compactMap({ EmailAddress($0.address) }).map {
            try outbox.message(.addressAdded, to: $0, account: account, data: ["address": address.value])
        }
        let event = audit.prepare(
            .emailAddressAdded, AuditTrail.Subject(account: account), details: ["verifiedBy": provider])
        _ = try await repository.adopt(verified, of: account, audit: event, notices: notices)
    }

    private func issueCode(
        to address: EmailAddress, account: AccountID, purpose: EmailCodePurpose, at now: Date
    ) async throws {
        let code = EmailCode.make()
        let id = UUID()
        let record = EmailCodeRecord(
            id: id, accountId: account, address: address.value, purpose: purpose.rawValue,
            codeHash: EmailCode.hash(code, id: id), attempts: 0, expiresAt: now.addingTimeInterval(EmailCode.lifetime),
            usedAt: nil, createdAt: now)
        let mail = try outbox.message(
            .emailCode, to: address, account: account, data: ["code": code, "purpose": purpose.rawValue],
            expiresIn: EmailCode.lifetime)
        try await repository.issue(record, mail: mail)
    }

    /// Refuses a request past the address's or the asking account's hourly cap. The address's counts every requested
    /// mail to it, whoever asked, so the refusal says nothing about whose it is.
    private func admit(_ address: EmailAddress, account: AccountID?, at now: Date) async throws {
        let hourAgo = now.addingTimeInterval(-3600)
        let toAddress = try await mails.count(of: MailKind.requested, to: address.value, since: hourAgo)
        var byAccount = 0
        if let account { byAccount = try await repository.codesMade(by: account, since: hourAgo) }
        guard toAddress < limits.codesPerAddress, byAccount < limits.codesPerAccount else { throw Self.tooMany }
    }

    /// The 429 past an hourly cap on what a person can make Hale mail.
    static var tooMany: HaleError {
        var error = HaleError(
            .rateLimited, .rateLimited, message: "Too many codes were asked for. Try again in an hour.")
        error.retryAfterSeconds = 3600
        return error
    }

    /// Deletes codes made more than a day ago: they expired long since, and the hourly caps count only the last hour;
    /// returns how many.
    func purgeOldCodes() async throws -> Int {
        try await repository.purgeCodes(madeBefore: clock.now().addingTimeInterval(-86_400))
    }

    static let invalidCode = HaleError(
        .emailCodeInvalid, .invalidInput, message: "The code is wrong, expired or used. Ask for a new one.")

    static let taken = HaleError(
        .conflict, .conflict, message: "This address was verified by another account meanwhile.")
}

extension HaleError.Code {
    /// An email code that is not the live one for the address: wrong, expired, used, or out of attempts (400).
    public static let emailCodeInvalid = Self(rawValue: "EMAIL_CODE_INVALID")
}
