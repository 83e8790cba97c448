import Foundation
import JWTKit

/// A signed provenance statement's claims: for one local day of one account, which totals came from which attested
/// app instance, and the writes that proved them. Signed as a JWS of type `hale-provenance+jwt` with a provenance key
/// published in Hale's JWK Set, so anyone can check it offline with a standard library, years later.
public struct ProvenanceStatement: JWTPayload, Equatable {
    /// Hale's issuer (`tokens.issuer`).
    public let iss: IssuerClaim
    /// The account.
    public let sub: SubjectClaim
    /// When Hale signed it.
    public let iat: IssuedAtClaim
    /// The account's local day, `YYYY-MM-DD`, by each sample's own UTC offset, as its daily totals are.
    public let day: String
    /// The attested sources of that day's data, each with its totals.
    public let sources: [Source]

    /// One attested app instance: on iOS an App Attest key, one installation on one device; on Android the app and
    /// its version, which Play Integrity vouches for without naming an installation.
    public struct Source: Codable, Sendable, Equatable {
        /// `ios` or `android`.
        public let platform: String
        /// iOS: the App Attest key's id.
        public let keyId: String?
        /// iOS: `TEAMID.bundle`; Android: the package name.
        public let appId: String
        /// Android: the `versionCode` Play reported.
        public let appVersion: String?
        /// The day's totals of what this instance sent, each type rolled up by Hale's rules (overlapping devices
        /// ranked, samples split at midnight), in the type's canonical unit.
        public let totals: [Total]
        /// How many of its samples count on the day.
        public let samples: Int
        /// The attested writes that brought them, oldest first: at most `ProvenanceStatements.maximumWrites`.
        public let writes: [Write]
        /// How many writes brought them.
        public let writeCount: Int
    }

    /// A day's total of one type.
    public struct Total: Codable, Sendable, Equatable {
        /// `steps`, `distance`, `calories`, `active_minutes`, `workouts` or `oxygen_saturation`.
        public let type: String
        /// The total, or the mean for oxygen saturation.
        public let value: Double
        /// Its unit: `count`, `m`, `kcal`, `s` or `%`.
        public let unit: String
    }

    /// What proved one write.
    public struct Write: Codable, Sendable, Equatable {
        /// The one-time nonce it was attested over.
        public let nonce: String
        /// iOS: the assertion's counter.
        public let counter: Int64?
        /// base64url of SHA-256 of its body.
        public let bodySha256: String
        /// When Hale accepted it.
        public let at: String
    }

    /// Nothing to check beyond the signature: a statement does not expire, it records a day.
    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}
