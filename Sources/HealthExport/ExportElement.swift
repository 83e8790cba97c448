/// One tag of an export's XML: a start tag (with its attributes, and whether it closes itself) or an end tag.
public struct ExportElement: Sendable, Equatable {
    /// Start or end.
    public enum Kind: Sendable, Equatable {
        case start(selfClosing: Bool)
        case end
    }

    /// The element's name, such as `Record`.
    public var name: String
    /// Its attributes, entities decoded; empty for an end tag.
    public var attributes: [String: String]
    /// Start or end.
    public var kind: Kind

    /// An element.
    public init(name: String, attributes: [String: String] = [:], kind: Kind) {
        self.name = name
        self.attributes = attributes
        self.kind = kind
    }
}

/// Why an export could not be read, with where.
public struct ExportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, for a person.
    public let message: String

    /// An error.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
