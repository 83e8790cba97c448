import Foundation

/// Which keys sign and which verify, at a given time, computed from the stored keys alone.
///
/// A key signs from its activation until the next key activates. It verifies from its creation — so a key published
/// ahead of activation is already in the JWK Set — until one access-token lifetime (plus slack for caches) after it
/// stopped signing.
struct SigningKeySchedule: Sendable {
    /// Stored keys, newest activation first.
    let keys: [SigningKeyRecord]
    let verificationSlack: TimeInterval

    /// The key that signs at `now`.
    func active(at now: Date) -> SigningKeyRecord? {
        keys.first { $0.activatesAt <= now }
    }

    /// A key published but not yet signing.
    func pending(at now: Date) -> SigningKeyRecord? {
        keys.first { $0.activatesAt > now }
    }

    /// The keys that verify tokens at `now`.
    func verifying(at now: Date, accessTokenLifetime: TimeInterval) -> [SigningKeyRecord] {
        keys.enumerated().filter { index, key in
            guard index > 0, let successor = keys[..<index].last(where: { $0.activatesAt > key.activatesAt }) else {
                return true
            }
            let stoppedSigning = successor.activatesAt
            return stoppedSigning > now
                || now.timeIntervalSince(stoppedSigning) < accessTokenLifetime + verificationSlack
        }.map(\.element)
    }
}
