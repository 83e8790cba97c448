/// A point of the audit trail kept outside the database: an event's sequence and hash, written `SEQUENCE:HASH`.
///
/// The chain alone cannot show that its newest events were deleted: what is left still links. An anchor taken from
/// `hale audit verify` or from the server's log (`audit head`) and given back to a later verify shows it: the chain
/// must still hold that event, with that hash.
public struct AuditAnchor: Sendable, Equatable, LosslessStringConvertible {
    /// The event's sequence.
    public let sequence: Int64
    /// Its hash, 64 lower-case hex digits.
    public let hash: String

    /// An anchor at `sequence` with `hash`.
    public init(sequence: Int64, hash: String) {
        self.sequence = sequence
        self.hash = hash
    }

    /// Reads `SEQUENCE:HASH`; nil for anything else.
    public init?(_ description: String) {
        let parts = description.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let sequence = Int64(parts[0]), sequence > 0, parts[1].utf8.count == 64,
            parts[1].utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        self.init(sequence: sequence, hash: String(parts[1]))
    }

    /// `SEQUENCE:HASH`.
    public var description: String { "\(sequence):\(hash)" }
}
