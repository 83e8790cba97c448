import StrictJSON

/// Reads a JSON:API request document member by member, collecting one error per invalid field with its JSON
/// Pointer, so a client learns everything that is wrong at once.
struct JSONAPIReader {
    private(set) var errors: [HaleError.FieldError] = []
    /// Errors reported at most; a document with more is answered with these and one saying there were more.
    static let maximumErrors = 20

    /// Records an error at `pointer`.
    mutating func fail(_ pointer: String, _ message: String) {
        if errors.count < Self.maximumErrors {
            errors.append(HaleError.FieldError(pointer: pointer, message: message))
        } else if errors.count == Self.maximumErrors {
            errors.append(HaleError.FieldError(pointer: "", message: "There are more errors than these."))
        }
    }

    /// The object at `pointer`, or `nil` (and an error unless it may be absent).
    mutating func object(_ value: JSONValue?, at pointer: String, required: Bool = true) -> [String: JSONValue]? {
        switch value {
        case .object(let object): return object
        case nil, .null?:
            if required { fail(pointer, "is required.") }
            return nil
        case let other?:
            fail(pointer, "must be an object, not \(other.typeName).")
            return nil
        }
    }

    /// Records an error for every member of `object` not in `known`; a name is repeated in its pointer as
    /// `EchoedName` cuts and escapes it.
    mutating func rejectUnknownMembers(of object: [String: JSONValue], at pointer: String, known: Set<String>) {
        for name in object.keys.sorted() where !known.contains(name) {
            fail("\(pointer)/\(Self.escaped(EchoedName.text(name)))", "is not a member this endpoint accepts.")
        }
    }

    /// A non-empty string of at most `maxLength` characters.
    mutating func string(_ value: JSONValue?, at pointer: String, required: Bool = true, maxLength: Int = 256)
        -> String?
    {
        switch value {
        case .string(let text) where !text.isEmpty && text.utf8.count <= maxLength: return text
        case .string(let text) where text.isEmpty: fail(pointer, "must not be empty.")
        case .string: fail(pointer, "must be at most \(maxLength) bytes.")
        case nil, .null?: if required { fail(pointer, "is required.") }
        case let other?: fail(pointer, "must be a string, not \(other.typeName).")
        }
        return nil
    }

    /// A string that keeps `rule`, or `nil` and an error that states the rule.
    mutating func text(_ value: JSONValue?, at pointer: String, rule: TextRule) -> String? {
        switch value {
        case .string(let text) where rule.allows(text): return text
        case .string: fail(pointer, "must be \(rule.requirement).")
        case nil, .null?: fail(pointer, "is required.")
        case let other?: fail(pointer, "must be a string, not \(other.typeName).")
        }
        return nil
    }

    /// One of an enumeration's raw values.
    mutating func choice<Choice: RawRepresentable & CaseIterable>(
        _ value: JSONValue?, at pointer: String, as: Choice.Type
    ) -> Choice? where Choice.RawValue == String {
        guard let text = string(value, at: pointer) else { return nil }
        guard let choice = Choice(rawValue: text) else {
            fail(pointer, "must be one of \(Choice.allCases.map(\.rawValue).joined(separator: ", ")).")
            return nil
        }
        return choice
    }

    /// A whole number in `range`.
    mutating func integer(_ value: JSONValue?, at pointer: String, in range: ClosedRange<Int>) -> Int? {
        switch value {
        case .integer(let number) where Int(exactly: number).map(range.contains) == true:
            return Int(number)
        case .integer: fail(pointer, "must be between \(range.lowerBound) and \(range.upperBound).")
        case nil, .null?: fail(pointer, "is required.")
        case .number: fail(pointer, "must be a whole number.")
        case let other?: fail(pointer, "must be a number, not \(other.typeName).")
        }
        return nil
    }

    /// `true` or `false`.
    mutating func boolean(_ value: JSONValue?, at pointer: String) -> Bool? {
        switch value {
        case .bool(let flag): return flag
        case nil, .null?: fail(pointer, "is required.")
        case let other?: fail(pointer, "must be true or false, not \(other.typeName).")
        }
        return nil
    }

    /// A non-empty array of distinct enumeration values.
    mutating func choices<Choice: RawRepresentable & CaseIterable & Equatable>(
        _ value: JSONValue?, at pointer: String, as type: Choice.Type
    ) -> [Choice]? where Choice.RawValue == String {
        guard case .array(let items) = value else {
            if case nil = value { fail(pointer, "is required.") } else { fail(pointer, "must be an array.") }
            return nil
        }
        guard !items.isEmpty else {
            fail(pointer, "must name at least one value.")
            return nil
        }
        var chosen: [Choice] = []
        for (index, item) in items.enumerated() {
            guard let choice = self.choice(item, at: "\(pointer)/\(index)", as: type) else { continue }
            if chosen.contains(choice) {
                fail("\(pointer)/\(index)", "repeats \"\(choice.rawValue)\".")
            } else {
                chosen.append(choice)
            }
        }
        return chosen.count == items.count ? chosen : nil
    }

    /// RFC 6901: `~` and `/` in a member name are escaped.
    static func escaped(_ name: String) -> String {
        name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
