/// A JSON object nested in a request body whose documented fields are the only ones allowed.
protocol StrictFields: Decodable, Sendable {
    /// The fields the object may contain.
    static var allowedFields: Set<String> { get }
}

/// Decodes `Value`, then rejects any field of its object that `Value` does not declare, naming it by its path in
/// the body: a misspelt `userEnterd` inside the 37th sample is a 400, not a silent `false`.
struct Strict<Value: StrictFields>: Decodable, Sendable {
    let value: Value

    init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: FieldName.self).allKeys.map(\.stringValue)
        if let unknown = keys.sorted().first(where: { !Value.allowedFields.contains($0) }) {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath + [FieldName(unknown)], debugDescription: "unknown field",
                    underlyingError: UnknownField()))
        }
        value = try Value(from: decoder)
    }
}

/// What `Strict` throws inside its `DecodingError`, so the error message can say the field is unknown.
struct UnknownField: Error {}

/// Any key of a JSON object.
struct FieldName: CodingKey {
    let stringValue: String
    let intValue: Int? = nil

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension Strict: Encodable where Value: Encodable {
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}
