import Foundation

/// Recovery codes: ten single-use codes a person keeps apart from their devices, so that losing every device does not
/// lose the account. Each is 80 random bits, written as 16 base32 letters in four groups (`abcd-efgh-ijkl-mnop`),
/// shown once when made and stored only as its SHA-256; making new ones (which needs a fresh sign-in) replaces the
/// old. A code alone names its account, as a refresh token does.
///
/// Using a code opens a *recovery session*: an access token that can do one thing only, enrol one new passkey or
/// device key (`BearerAuthMiddleware` refuses it everywhere else), valid for an access token's lifetime and never
/// refreshed. Enrolling ends it; the new credential then signs in as usual.
public struct RecoveryCodes: Sendable {
    let repository: any RecoveryCodeRepository
    let sessions: Sessions
    let audit: AuditTrail
    let clock: HaleClock

    /// How many codes are made at once.
    public static let count = 10
    /// The sign-in method of a recovery session.
    public static let signInMethod = "recovery"
    static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")

    /// Makes the account's codes, replacing any it had; returns them, the only time they are seen.
    public func generate(for account: AccountID, session: SessionID?) async throws -> [String] {
        let letters = (0..<Self.count).map { _ in Self.letters(OpaqueToken.randomBytes(10)) }
        let event = audit.prepare(
            .recoveryCodesCreated, AuditTrail.Subject(account: account, session: session),
            details: ["count": String(Self.count)])
        try await repository.replace(of: account, with: letters.map(OpaqueToken.hash), at: clock.now(), audit: event)
        return letters.map(Self.grouped)
    }

    /// How many of the account's codes are left.
    public func remaining(of account: AccountID) async throws -> Int {
        try await repository.remaining(of: account)
    }

    /// Uses a code, once: the account it opened, and a recovery session's tokens. Any code that is not an unused one
    /// of some account is `RECOVERY_CODE_INVALID`, the same answer whatever the reason.
    public func redeem(_ code: String, ipRange: String?) async throws -> (account: AccountID, tokens: TokenPair) {
        guard let normalized = Self.normalized(code) else {
            throw InvalidInput("code", .form("a recovery code: 16 letters and digits, dashes allowed"))
        }
        guard let account = try await repository.use(hash: OpaqueToken.hash(normalized), at: clock.now()) else {
            throw Self.invalid
        }
        let pair = try await sessions.start(
            account: account, device: nil, signInMethod: Self.signInMethod, rememberMe: false)
        try await audit.record(
            .recoveryCodeUsed, AuditTrail.Subject(account: account, session: pair.sessionId, ipRange: ipRange),
            details: ["remaining": String(try await remaining(of: account))])
        return (account, pair)
    }

    static let invalid = HaleError(
        .recoveryCodeInvalid, .unauthenticated, message: "This is not a recovery code of any account, or it was used.")

    /// Sixteen base32 letters for ten bytes: the code as stored.
    static func letters(_ bytes: [UInt8]) -> String {
        var bits = 0
        var value = 0
        var letters: [Character] = []
        for byte in bytes {
            value = (value << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                letters.append(alphabet[(value >> (bits - 5)) & 31])
                bits -= 5
            }
            value &= (1 << bits) - 1
        }
        return String(letters)
    }

    /// `abcd-efgh-ijkl-mnop`: the letters in groups of four, as a person reads them.
    static func grouped(_ letters: String) -> String {
        let characters = Array(letters)
        return stride(from: 0, to: characters.count, by: 4)
            .map { String(characters[$0..<min($0 + 4, characters.count)]) }.joined(separator: "-")
    }

    /// The code as stored: lowercase, without dashes and spaces; nil unless it is 16 letters of the alphabet. Looks
    /// at no more than 64 characters of what a client sent.
    static func normalized(_ code: String) -> String? {
        guard code.utf8.count <= 64 else { return nil }
        let letters = code.lowercased().filter { $0 != "-" && $0 != " " }
        guard letters.count == 16, letters.allSatisfy({ alphabet.contains($0) }) else { return nil }
        return letters
    }
}
