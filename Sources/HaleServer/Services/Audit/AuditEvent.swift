import ByteEncoding
import Crypto
import Foundation

/// One security-relevant event in the append-only audit trail.
public struct AuditEvent: Codable, Sendable, Equatable {
    /// Its place in the trail, from 1, with no gaps.
    public var sequence: Int64
    /// The account it concerns, as a keyed pseudonym (`AuditPseudonym`): HMAC-SHA256 of the account's id under a
    /// key of that account alone, hex. Erasing the account destroys the key, and the event then names no one; the
    /// chain hashes the pseudonym, so verifying it needs no key.
    public var accountPseudonym: String
    /// What happened, such as `device_registered`.
    public var eventType: String
    /// The device involved, when there is one.
    public var deviceId: DeviceID?
    /// The session involved, when there is one.
    public var sessionId: SessionID?
    /// The network the request came from (IPv4 /24, IPv6 /48), never the full address.
    public var ipRange: String?
    /// A JSON object of further facts; never tokens, keys or health values.
    public var details: String
    /// When it happened.
    public var createdAt: Date
    /// The hash of the event before it, or 64 zeros for the first.
    public var previousHash: String
    /// SHA-256 of this event's content and `previousHash`.
    public var hash: String

    /// The hash this event should have: over every other field, in a fixed order, each length-prefixed so no two
    /// different events can encode alike.
    public var expectedHash: String {
        let fields = [
            String(sequence), accountPseudonym, eventType, deviceId?.description ?? "",
            sessionId?.description ?? "", ipRange ?? "", details,
            String(Int64((createdAt.timeIntervalSince1970 * 1000).rounded())), previousHash,
        ]
        let encoded = fields.map { "\($0.utf8.count):\($0)" }.joined()
        return Hex.encode(SHA256.hash(data: Data(encoded.utf8)))
    }

    /// The `previousHash` of the first event.
    public static let genesisHash = String(repeating: "0", count: 64)
}
