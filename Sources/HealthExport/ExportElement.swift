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
    public var attributes: ExportAttributes
    /// Start or end.
    public var kind: Kind
    /// Where its tag ends: the offset of the byte after its `>`, counting from the document's first byte.
    public var end: Int64

    /// An element.
    public init(name: String, attributes: ExportAttributes = [:], kind: Kind, end: Int64 = 0) {
        self.name = name
        self.attributes = attributes
        self.kind = kind
        self.end = end
    }
}

/// An element's attributes in the order written, found by looking along them: an element has a few, and hashing
/// each name into a dictionary was a third of the work of reading an export (`perf`).
public struct ExportAttributes: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    private struct Attribute: Sendable, Equatable {
        let name: String
        let value: String
    }

    private var attributes: [Attribute] = []

    /// Attributes, in this order.
    public init(dictionaryLiteral elements: (String, String)...) {
        attributes = elements.map(Attribute.init)
    }

    /// The value of the attribute named `name`; of the last one, if it is written twice.
    public subscript(name: String) -> String? {
        attributes.last { $0.name == name }?.value
    }

    mutating func append(_ name: String, _ value: String) {
        // A record has nine or ten: one allocation, not four.
        if attributes.isEmpty { attributes.reserveCapacity(12) }
        attributes.append(Attribute(name: name, value: value))
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
