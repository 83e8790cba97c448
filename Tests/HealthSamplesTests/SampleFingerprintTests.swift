import Foundation
import Testing

@testable import HealthSamples

@Suite("Health samples: identity and seed 004's content hash")
struct SampleFingerprintTests {
    static let userID = "0b7c1f5e-2a9d-4c3e-8f61-3d2a4b5c6d7e"

    /// Expected hashes computed by Node.js with seed 004's template literal and `crypto.createHash('sha256')`.
    @Test("the hash of a sample with an id is seed 004's")
    func withID() {
        let hash = SampleFingerprint.seedHash(
            userID: Self.userID, sampleID: "3F2504E0-4F89-11D3-9A0C-0305E82C3301", type: "steps", value: 5000,
            startDate: "2025-03-09T08:00:00.000Z", endDate: "2025-03-09T09:00:00.000Z")
        #expect(hash == "4a71337a83a4c1f6d946a3ac04f727eb1c7f74f61c740eb36bed93ff1ecd65cf")
    }

    @Test("a sample without an id hashes with the empty string, its value written as JavaScript does")
    func withoutID() {
        let hash = SampleFingerprint.seedHash(
            userID: Self.userID, sampleID: nil, type: "activeMinutes", value: 0.1 + 0.2,
            startDate: "2025-03-09T08:00:00Z", endDate: "2025-03-09T08:30:00Z")
        #expect(hash == "3642ee2680a5ebc52cb4b82b01637307400dc35ade32d1fd2bde179d9e007505")
    }

    @Test("JavaScript's undefined id can be reproduced explicitly")
    func undefinedID() {
        let hash = SampleFingerprint.seedHash(
            userID: Self.userID, sampleID: "undefined", type: "steps", value: 1234.5,
            startDate: "2025-11-02T05:30:00.000Z", endDate: "2025-11-02T06:30:00.000Z")
        #expect(hash == "fe328ecbb6a9ba994490387e23eed32650b43d42835da181583d25f9e56e4d98")
    }

    @Test("exponent-form values")
    func exponentValue() {
        let hash = SampleFingerprint.seedHash(
            userID: Self.userID, sampleID: "x", type: "distance", value: 1e21, startDate: "a", endDate: "b")
        #expect(hash == "9984845245fa7ce4e019841999ca957abcb108389d617a493fc0d20642521a48")
    }

    @Test("identities: UUID platform ids ignore letter case, other ids are kept as sent, empty ids are refused")
    func identities() throws {
        let account = try #require(UUID(uuidString: Self.userID))
        let upper = SampleIdentity(
            accountID: account, provider: .healthkit, platformID: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")
        let lower = SampleIdentity(
            accountID: account, provider: .healthkit, platformID: "3f2504e0-4f89-11d3-9a0c-0305e82c3301")
        #expect(upper != nil && upper == lower)
        let other = SampleIdentity(
            accountID: account, provider: .healthConnect, platformID: "3f2504e0-4f89-11d3-9a0c-0305e82c3301")
        #expect(other != upper)
        #expect(SampleIdentity(accountID: account, provider: .googleFit, platformID: "Ab:1")?.platformID == "Ab:1")
        #expect(SampleIdentity(accountID: account, provider: .healthkit, platformID: "") == nil)
    }
}
