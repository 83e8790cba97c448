import Foundation

/// A UUID tagged with the type it identifies, so that an `AccountID` cannot be passed where a `SessionID` is meant.
///
/// It encodes as a UUID, so SQL binds it with the database's UUID type; responses write `description`.
public struct Identifier<Tag>: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The underlying UUID.
    public let rawValue: UUID

    /// Wraps an existing UUID.
    public init(_ rawValue: UUID) {
        self.rawValue = rawValue
    }

    /// Parses the canonical textual form of a UUID; returns `nil` for anything else.
    public init?(_ string: String) {
        guard let uuid = UUID(uuidString: string) else { return nil }
        self.rawValue = uuid
    }

    /// A new random identifier.
    public static func random() -> Self {
        Self(UUID())
    }

    /// The lowercase canonical form, as Hale writes identifiers in JSON.
    public var description: String {
        rawValue.uuidString.lowercased()
    }

    /// Decodes a UUID.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(UUID.self)
    }

    /// Encodes the UUID, so that SQL binds it with the database's UUID type.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// Tags for the identifiers of Hale's core model.
public enum AccountTag {}
/// Tags a session (refresh-token family) identifier.
public enum SessionTag {}
/// Tags a device identifier.
public enum DeviceTag {}
/// Tags a server-challenge identifier.
public enum ServerChallengeTag {}

/// Identifies an account.
public typealias AccountID = Identifier<AccountTag>
/// Identifies a session, that is a refresh-token family.
public typealias SessionID = Identifier<SessionTag>
/// Identifies a device: one app installation on one phone.
public typealias DeviceID = Identifier<DeviceTag>
/// Identifies a server challenge.
public typealias ServerChallengeID = Identifier<ServerChallengeTag>

/// Tags a fitness-challenge identifier.
public enum FitnessChallengeTag {}

/// Identifies a fitness challenge.
public typealias FitnessChallengeID = Identifier<FitnessChallengeTag>

/// Tags a confirmation-request identifier.
public enum ConfirmationTag {}

/// Identifies a confirmation request.
public typealias ConfirmationID = Identifier<ConfirmationTag>
