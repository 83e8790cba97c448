import ByteEncoding
import Foundation

/// Signs the JWTs Hale sends to push gateways: the APNs provider token and the FCM OAuth assertion.
enum CompactJWT {
    /// `header.claims.signature`, each part base64url; `sign` returns the JWS signature bytes of the signing input.
    static func make(
        header: [String: String], claims: [String: JSONScalar], sign: ([UInt8]) throws -> [UInt8]
    ) throws -> String {
        let signingInput = try Base64URL.encode(json(header)) + "." + Base64URL.encode(json(claims))
        return signingInput + "." + Base64URL.encode(try sign(Array(signingInput.utf8)))
    }

    /// A claim value: text or a whole number.
    enum JSONScalar: Encodable {
        case text(String)
        case number(Int)

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let text): try container.encode(text)
            case .number(let number): try container.encode(number)
            }
        }
    }

    private static func json(_ object: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(object)
    }
}
