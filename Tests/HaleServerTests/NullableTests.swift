import Foundation
import Testing

@testable import HaleServer

@Suite("Nullable response fields")
struct NullableTests {
    struct Body: Codable, Equatable {
        var name: String
        @Nullable var revokedAt: String?

        static func == (lhs: Body, rhs: Body) -> Bool { lhs.name == rhs.name && lhs.revokedAt == rhs.revokedAt }
    }

    @Test("nil is written as null, not left out; a value as itself; both read back")
    func roundTrip() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let absent = Body(name: "a", revokedAt: nil)
        let present = Body(name: "b", revokedAt: "2025-10-29T12:00:00.000Z")
        #expect(String(decoding: try encoder.encode(absent), as: UTF8.self) == #"{"name":"a","revokedAt":null}"#)
        #expect(
            String(decoding: try encoder.encode(present), as: UTF8.self)
                == #"{"name":"b","revokedAt":"2025-10-29T12:00:00.000Z"}"#)
        #expect(try JSONDecoder().decode(Body.self, from: try encoder.encode(absent)) == absent)
        #expect(try JSONDecoder().decode(Body.self, from: try encoder.encode(present)) == present)
    }
}
