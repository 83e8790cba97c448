import Foundation

/// What a ceremony keeps in its server challenge until the client answers: any `Codable` value, as JSON.
enum ChallengeContext {
    static func encode(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    /// The value, or `INVALID_CHALLENGE` when the challenge holds none of this type.
    static func decode<Value: Decodable>(_ type: Value.Type, from context: String?) throws -> Value {
        guard let context, let value = try? JSONDecoder().decode(type, from: Data(context.utf8)) else {
            throw HaleError.invalidChallenge
        }
        return value
    }
}
