import Crypto
import Foundation
import Testing

@testable import HaleClient

@Suite("HaleClient models")
struct HaleClientModelTests {
    @Test func sampleTimesAreWrittenAsHaleReadsThem() throws {
        let start = Date(timeIntervalSince1970: 1_795_336_200.25)
        let kolkata = try #require(TimeZone(identifier: "Asia/Kolkata"))
        let sample = HealthSyncSample(
            id: "A", type: "steps", value: 10, unit: "count", start: start, end: start + 60, timeZone: kolkata)
        #expect(sample.startDate == "2026-11-22T08:30:00.250Z")
        #expect(sample.endDate == "2026-11-22T08:31:00.250Z")
        #expect(sample.timeZoneOffset == "+05:30")
    }

    @Test(arguments: [
        ("America/St_Johns", "-03:30"), ("UTC", "+00:00"), ("Pacific/Kiritimati", "+14:00"),
        ("America/Los_Angeles", "-08:00"),
    ])
    func offsets(zone: String, expected: String) throws {
        let date = Date(timeIntervalSince1970: 1_795_336_200)
        #expect(HealthSyncSample.offset(of: try #require(TimeZone(identifier: zone)), at: date) == expected)
    }

    @Test(arguments: ["2026-11-22T08:30:00.250Z", "2026-11-22T08:30:00Z"])
    func timestampsAreReadWithOrWithoutFractions(text: String) throws {
        struct Stamped: Decodable { let at: Date }
        let decoded = try HaleClient.decoder.decode(Stamped.self, from: Data(#"{"at":"\#(text)"}"#.utf8))
        #expect(abs(decoded.at.timeIntervalSince1970 - 1_795_336_200) < 1)
    }

    @Test func aConfirmationIsSignedOverItsFiveLines() throws {
        let json = #"""
            {"id":"6F9619FF-8B86-D011-B42D-00C04FC964FF","accountId":"a","actionType":"payment.approve",
             "actionPayload":"{\"amount\":1}","status":"pending","createdAt":"2026-11-22T05:10:00.000Z",
             "expiresAt":"2026-11-22T05:15:00.000Z"}
            """#
        let confirmation = try HaleClient.decoder.decode(Confirmation.self, from: Data(json.utf8))
        // SHA-256 of "hale-confirmation-v1\n6f9619ff-…\npayment.approve\napprove\n{"amount":1}", base64url.
        let lines =
            "hale-confirmation-v1\n6f9619ff-8b86-d011-b42d-00c04fc964ff\npayment.approve\napprove\n{\"amount\":1}"
        let expected = Data(SHA256.hash(data: Array(lines.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        #expect(confirmation.challenge(for: .approve) == expected)
        #expect(confirmation.challenge(for: .deny) != expected)
    }
}
