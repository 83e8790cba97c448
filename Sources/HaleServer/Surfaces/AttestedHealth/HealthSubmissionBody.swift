import Foundation
import StrictJSON

/// Reads a `POST /health` body as seed 001's clients send it, with the document's messages where it has them and
/// NestJS's wording where it does not. The first invalid field is reported.
enum HealthSubmissionBody {
    static let fields: Set<String> = [
        "nonce", "attestationToken", "platform", "steps", "duration", "calories", "distance", "source", "date",
    ]
    static let maxTokenLength = 16_384
    static let maxNonceLength = 256

    static func read(_ body: JSONValue) throws -> HealthSubmission {
        guard case .object(let members) = body else { throw HaleError.invalidRequest("The body must be a JSON object") }
        if let unknown = members.keys.sorted().first(where: { !fields.contains($0) }) {
            throw HaleError.invalidRequest("property \(EchoedName.text(unknown)) should not exist")
        }
        let nonce = try text(members["nonce"], "nonce", maxLength: maxNonceLength)
        let token = try text(members["attestationToken"], "attestationToken", maxLength: maxTokenLength)
        guard case .string(let platformName) = members["platform"],
            let platform = DeviceAttestation.Platform(rawValue: platformName)
        else {
            throw HaleError.invalidRequest("Unsupported platform")
        }
        let totals = HealthTotals(
            steps: try wholeNumber(members["steps"], "Steps"),
            duration: Int64(try amount(members["duration"], "Duration").rounded()),
            caloriesHundredths: HealthTotals.hundredths(try amount(members["calories"], "Calories")),
            distanceHundredths: HealthTotals.hundredths(try amount(members["distance"], "Distance")))
        let source = try text(members["source"], "source", maxLength: 64)
        guard source.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_.-".contains($0)) }) else {
            throw HaleError.invalidRequest("source must contain only letters, digits, _, . and -")
        }
        return HealthSubmission(
            nonce: nonce, attestationToken: token, platform: platform, totals: totals, source: source,
            date: try date(members["date"]))
    }

    private static func text(_ value: JSONValue?, _ name: String, maxLength: Int) throws -> String {
        guard case .string(let text) = value else {
            throw HaleError.invalidRequest(value == nil ? "\(name) should not be empty" : "\(name) must be a string")
        }
        guard !text.isEmpty else { throw HaleError.invalidRequest("\(name) should not be empty") }
        guard text.utf8.count <= maxLength else {
            throw HaleError.invalidRequest("\(name) must be at most \(maxLength) bytes")
        }
        return text
    }

    /// A number of at least 0, finite and below a trillion, with seed 001's message otherwise.
    private static func amount(_ value: JSONValue?, _ name: String) throws -> Double {
        let number: Double? =
            switch value {
            case .integer(let whole)?: Double(whole)
            case .number(let real)?: real
            default: nil
            }
        guard let number, number.isFinite, number >= 0, number < 1e12 else {
            throw HaleError.invalidRequest("\(name) must be a positive number")
        }
        return number
    }

    /// Steps are counted, but HealthKit's cumulative sum is a `Double` (`8500.0`, or `8500.4` when a sample was
    /// split across the query's window), so a fraction is rounded to the nearest whole step, halves up.
    private static func wholeNumber(_ value: JSONValue?, _ name: String) throws -> Int64 {
        Int64(try amount(value, name).rounded(.toNearestOrAwayFromZero))
    }

    private static func date(_ value: JSONValue?) throws -> LocalDate? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?:
            guard let date = LocalDate(text) else {
                throw HaleError.invalidRequest("date must be a valid ISO 8601 date string (YYYY-MM-DD)")
            }
            return date
        default: throw HaleError.invalidRequest("date must be a valid ISO 8601 date string (YYYY-MM-DD)")
        }
    }
}
