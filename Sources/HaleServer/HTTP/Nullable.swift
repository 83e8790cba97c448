/// An optional response field written as `null` when it has no value, where the documented shape lists the field
/// either way. (Synthesized `Encodable` leaves a nil optional out.)
@propertyWrapper
struct Nullable<Value: Codable & Sendable>: Codable, Sendable {
    var wrappedValue: Value?

    init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}
