import Foundation
import NIOCore

/// Any JSON value, for fakes that check what Hale sent them member by member.
public enum TestJSONValue: Decodable, Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([TestJSONValue])
    /// An object.
    case object([String: TestJSONValue])

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([TestJSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: TestJSONValue].self))
        }
    }

    /// The members of a JSON object in `bytes`; nil when they hold something else.
    public static func object(from bytes: some Sequence<UInt8>) -> [String: TestJSONValue]? {
        guard case .object(let members) = try? JSONDecoder().decode(TestJSONValue.self, from: Data(bytes)) else {
            return nil
        }
        return members
    }

    /// The members of a JSON object in `buffer`; nil when there is no buffer or it holds something else.
    public static func object(from buffer: ByteBuffer?) -> [String: TestJSONValue]? {
        buffer.flatMap { object(from: $0.readableBytesView) }
    }

    /// The string, when this is one.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}

/// A compact JWS split into its parts, for fakes that check the tokens Hale signs.
public struct TestJWT: Sendable {
    /// The decoded header.
    public let header: [String: TestJSONValue]
    /// The decoded claims.
    public let claims: [String: TestJSONValue]
    /// `header.claims`, the bytes signed.
    public let signingInput: Data
    /// The signature bytes.
    public let signature: Data

    /// Splits and decodes `token`; nil when it is not three base64url parts with JSON objects.
    public init?(_ token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Self.decode(parts[0]).flatMap(TestJSONValue.object(from:)),
            let claims = Self.decode(parts[1]).flatMap(TestJSONValue.object(from:)),
            let signature = Self.decode(parts[2])
        else {
            return nil
        }
        self.header = header
        self.claims = claims
        signingInput = Data("\(parts[0]).\(parts[1])".utf8)
        self.signature = signature
    }

    private static func decode(_ part: Substring) -> Data? {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        return Data(base64Encoded: text)
    }
}
