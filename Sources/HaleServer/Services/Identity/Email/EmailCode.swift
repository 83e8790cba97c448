import ByteEncoding
import Foundation

/// A one-time code mailed to an address: six digits, good for `lifetime`, `maximumAttempts` tries and one use. Only
/// a salted SHA-256 is stored (salted with the code's row id, so no table of a million hashes serves every row), and
/// a guess is compared with it in constant time.
enum EmailCode {
    /// How long a code may be used.
    static let lifetime: TimeInterval = 600
    /// Tries against one code, right or wrong; the next is refused even with the right code.
    static let maximumAttempts = 5

    /// Six random digits, leading zeros kept.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(format: "%06d", Int.random(in: 0..<1_000_000, using: &generator))
    }

    /// The code's stored form.
    static func hash(_ code: String, id: UUID) -> String {
        OpaqueToken.hash("hale-email-code:\(id.uuidString.lowercased()):\(code)")
    }

    /// Whether `guess` is the code stored as `hash`, compared in constant time.
    static func matches(_ guess: String, id: UUID, hash stored: String) -> Bool {
        ConstantTime.equals(hash(guess, id: id), stored)
    }

    /// The guess as it is hashed: its digits, when it is six of them after dropping spaces and dashes.
    static func normalized(_ guess: String) -> String? {
        guard guess.utf8.count <= 32 else { return nil }
        let digits = guess.filter { $0 != " " && $0 != "-" }
        guard digits.count == 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return digits
    }
}
