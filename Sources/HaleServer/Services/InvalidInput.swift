import HealthSamples

/// A value refused by a rule: which value, and which rule it breaks. It names no status and no seed's wording:
/// each surface's error renderer words it (`ErrorRenderer.domainError(for:)`), by default as `message` does.
///
/// The field is the domain's name for the value, such as `limit` or `startDate`; a surface whose body nests it
/// elsewhere, such as seed 000's `data.steps`, says so in its renderer.
public struct InvalidInput: Error, Sendable, Equatable, CustomStringConvertible {
    /// The value's name.
    public let field: String
    /// The rule it breaks.
    public let rule: Rule

    /// Creates the error for `field` breaking `rule`.
    public init(_ field: String, _ rule: Rule) {
        self.field = field
        self.rule = rule
    }

    /// A rule a value can break, with the facts a message needs.
    public enum Rule: Sendable, Equatable {
        /// The value must be present.
        case required
        /// The value must be one of these names.
        case oneOf([String])
        /// The value must be a whole number within these bounds.
        case between(Int, Int)
        /// The value must be a finite number above this one.
        case above(Double)
        /// The value must be a finite number of zero or more.
        case notNegative
        /// The value, a time or day, must not come before the named field's.
        case notBefore(String)
        /// The value, a time or day, must not come after the named field's.
        case notAfter(String)
        /// The value, a day, must not be in the future.
        case notInFuture
        /// The value must be a day written `YYYY-MM-DD`.
        case day
        /// The value must be text that keeps a `TextRule`.
        case text(TextRule)
        /// The value must be what these words say, such as "the 6 digits mailed to the address".
        case form(String)
        /// The value names something this server has not enabled, such as a sign-in provider it has no keys for.
        case notEnabled
        /// The rule in words that name no single field, such as "A fitness challenge lasts at most 366 days".
        case described(String)
    }

    /// Hale's own wording: "`field` must be …".
    public var message: String {
        switch rule {
        case .required: "\(field) is required"
        case .oneOf(let names): "\(field) must be one of: \(names.joined(separator: ", "))"
        case .between(let low, let high): "\(field) must be \(low) to \(high)"
        case .above(let bound): "\(field) must be a number above \(JavaScriptNumber.string(bound))"
        case .notNegative: "\(field) must be a number of zero or more"
        case .notBefore(let other): "\(field) must not be before \(other)"
        case .notAfter(let other): "\(field) must not be after \(other)"
        case .notInFuture: "\(field) must not be in the future"
        case .day: "\(field) must be a date as YYYY-MM-DD"
        case .text(let textRule): textRule.message(field: field)
        case .form(let words): "\(field) must be \(words)"
        case .notEnabled: "\(field) is not enabled on this server"
        case .described(let words): words
        }
    }

    /// The field and Hale's wording.
    public var description: String { message }

    /// The value of `Value` that `name` is, or this error naming every value `Value` has.
    public static func parse<Value: RawRepresentable & CaseIterable>(_ name: String?, as _: Value.Type, field: String)
        throws(InvalidInput) -> Value where Value.RawValue == String
    {
        guard let name else { throw InvalidInput(field, .required) }
        guard let value = Value(rawValue: name) else {
            throw InvalidInput(field, .oneOf(Value.allCases.map(\.rawValue)))
        }
        return value
    }
}
