import Foundation
import SocialTokens
import Testing

@Suite("Key set fetching and caching, proven by counting fetches")
struct KeySetCachingTests {
    @Test("Repeated verifications fetch the key set once")
    func fetchedOnce() async throws {
        let fixture = await Fixture()
        for _ in 0..<5 {
            let token = TestJWT.rs256(fixture.googleClaims(), kid: "google-1")
            _ = try await fixture.verifier.verify(provider: .google, token: token, nonce: nil)
            fixture.clock.advance(seconds: 60)
        }
        #expect(await fixture.verifier.keySetFetchCount(Fixture.googleKeys) == 1)
        #expect(await fixture.verifier.keySetFetchCount(Fixture.appleKeys) == 0)
    }

    @Test("Each provider's set is cached on its own")
    func perURL() async throws {
        let fixture = await Fixture()
        _ = try await fixture.verifier.verify(
            provider: .google, token: TestJWT.rs256(fixture.googleClaims(), kid: "google-1"), nonce: nil)
        _ = try await fixture.verifier.verify(
            provider: .apple, token: TestJWT.rs256(fixture.appleClaims(), kid: "apple-1"), nonce: nil)
        #expect(await fixture.verifier.keySetFetchCount(Fixture.googleKeys) == 1)
        #expect(await fixture.verifier.keySetFetchCount(Fixture.appleKeys) == 1)
    }

    @Test(
        "The set is fetched again once its Cache-Control lifetime is over",
        arguments: [
            ("public, max-age=19845, must-revalidate, no-transform", 19845.0),
            ("MAX-AGE=\"600\"", 600),
            (nil, 300), ("no-cache", 300), ("max-age=600, no-store", 300), ("max-age=0", 300), ("max-age=abc", 300),
            ("max-age=9999999", 86400),
        ] as [(String?, TimeInterval)])
    func expiry(cacheControl: String?, lifetime: TimeInterval) async throws {
        let fixture = await Fixture()
        await fixture.publish(
            Fixture.googleKeys, [TestKeySet.rsa(TestKeys.rsa.publicKey, kid: "google-1")], cacheControl: cacheControl)
        try await verifyGoogle(fixture)
        fixture.clock.advance(seconds: lifetime - 1)
        try await verifyGoogle(fixture)
        #expect(await fixture.verifier.keySetFetchCount(Fixture.googleKeys) == 1)
        fixture.clock.advance(seconds: 2)
        try await verifyGoogle(fixture)
        #expect(await fixture.verifier.keySetFetchCount(Fixture.googleKeys) == 2)
    }

    @Test("An unknown kid refreshes the set once, then not again within the refresh interval")
    func unknownKeyRateLimited() async throws {
        let fixture = await Fixture()
        try await verifyGoogle(fixture)
        fixture.clock.advance(seconds: 61)
        let unknown = TestJWT.rs256(fixture.googleClaims(), kid: "google-2")
        await fixture.expect(.invalidToken("unknown key id"), provider: .google, token: unknown)
        #expect(await fixture.verifier.keySetFetchCount(Fixture.googleKeys) == 2)
        for _ in 0..<5 {
            fixture.clock.advance(seconds: 10)
            await fixture.expect(.invalidToken("unknown key id"), provider: .google, token: unknown)
        }
        #expect(await fixture.verifier.keySetFetchCount(Fixture.googleKeys) == 2)
        fixture.clock.advance(seconds: 11)
        await fixture.expect(.invalidToken("unknown key id"), provider: .google, token: unknown)
        #expect(await fixture.verifier.keySetFetchCount(Fixture.googleKeys) == 3)
        try await verifyGoogle(fixture)
        #expect(await fixture.verifier.keySetFetchCount(Fixture.googleKeys) == 3)
    }

    @Test("An unknown kid right after the first fetch does not fetch again")
    func unknownKeyAfterFirstFetch() async {
        let fixture = await Fixture()
        let unknown = TestJWT.rs256(fixture.googleClaims(), kid: "google-2")
        await fixture.expect(.invalidToken("unknown key id"), provider: .google, token: unknown)
        await fixture.expect(.invalidToken("unknown key id"), provider: .google, token: unknown)
        #expect(await fixture.verifier.keySetFetchCount(Fixture.googleKeys) == 1)
    }

    @Test("A rotated key is found by the refresh an unknown kid triggers")
    func rotation() async throws {
        let fixture = await Fixture()
        try await verifyGoogle(fixture)
        await fixture.publish(
            Fixture.googleKeys,
            [
                TestKeySet.rsa(TestKeys.rsa.publicKey, kid: "google-1"),
                TestKeySet.rsa(TestKeys.otherRSA.publicKey, kid: "google-2"),
            ])
        fixture.clock.advance(seconds: 120)
        let rotated = TestJWT.rs256(fixture.googleClaims(), kid: "google-2", key: TestKeys.otherRSA)
        _ = try await fixture.verifier.verify(provider: .google, token: rotated, nonce: nil)
        #expect(await fixture.verifier.keySetFetchCount(Fixture.googleKeys) == 2)
    }

    @Test("Concurrent verifications share one fetch")
    func singleFlight() async throws {
        let fixture = await Fixture()
        await fixture.provider.setDelay(.milliseconds(300))
        let token = TestJWT.rs256(fixture.googleClaims(), kid: "google-1")
        let verifier = fixture.verifier
        let subjects = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 {
                group.addTask { try await verifier.verify(provider: .google, token: token, nonce: nil).subject }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(subjects.count == 20)
        #expect(await fixture.verifier.keySetFetchCount(Fixture.googleKeys) == 1)
        #expect(await fixture.provider.requestCount(Fixture.googleKeys) == 1)
    }

    @Test("Concurrent verifications share one failed fetch too")
    func singleFlightFailure() async throws {
        let fixture = await Fixture()
        await fixture.provider.setDelay(.milliseconds(300))
        await fixture.provider.answer(Fixture.googleKeys, with: SocialHTTPResponse(status: 503))
        let token = TestJWT.rs256(fixture.googleClaims(), kid: "google-1")
        let verifier = fixture.verifier
        let errors = await withTaskGroup(of: SocialTokenError?.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    do throws(SocialTokenError) {
                        _ = try await verifier.verify(provider: .google, token: token, nonce: nil)
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(errors == Array(repeating: .providerUnavailable("key set answered HTTP 503"), count: 10))
        #expect(await fixture.provider.requestCount(Fixture.googleKeys) == 1)
    }

    @Test("A 5xx key set with nothing cached is providerUnavailable")
    func serverErrorNothingCached() async {
        let fixture = await Fixture()
        await fixture.provider.answer(Fixture.appleKeys, with: SocialHTTPResponse(status: 502))
        let token = TestJWT.rs256(fixture.appleClaims(), kid: "apple-1")
        await fixture.expect(.providerUnavailable("key set answered HTTP 502"), provider: .apple, token: token)
    }

    @Test("An unreachable key set with nothing cached is providerUnavailable, and is tried again next time")
    func unreachableNothingCached() async throws {
        let fixture = await Fixture()
        await fixture.provider.makeUnreachable(Fixture.appleKeys)
        let token = TestJWT.rs256(fixture.appleClaims(), kid: "apple-1")
        await fixture.expect(.providerUnavailable("key set unreachable"), provider: .apple, token: token)
        await fixture.publish(Fixture.appleKeys, [TestKeySet.rsa(TestKeys.rsa.publicKey, kid: "apple-1")])
        _ = try await fixture.verifier.verify(provider: .apple, token: token, nonce: nil)
        #expect(await fixture.verifier.keySetFetchCount(Fixture.appleKeys) == 2)
    }

    @Test(
        "A key set document that is not a JWK Set",
        arguments: [
            "<html>", "{}", "{\"keys\":{}}", "[]", "{\"keys\":[]}", "{\"keys\":[{\"kty\":\"oct\",\"kid\":\"a\"}]}",
        ])
    func malformedKeySet(body: String) async {
        let fixture = await Fixture()
        await fixture.provider.answer(
            Fixture.googleKeys, with: SocialHTTPResponse(status: 200, headers: [], body: Array(body.utf8)))
        let token = TestJWT.rs256(fixture.googleClaims(), kid: "google-1")
        let reason = body.contains("[") && body.contains("keys") ? "key set has no usable keys" : "key set malformed"
        await fixture.expect(.providerUnavailable(reason), provider: .google, token: token)
    }

    @Test("A failed refresh keeps using the cached set")
    func staleSetOnFailure() async throws {
        let fixture = await Fixture()
        try await verifyGoogle(fixture)
        await fixture.provider.answer(Fixture.googleKeys, with: SocialHTTPResponse(status: 500))
        fixture.clock.advance(seconds: 3601)
        try await verifyGoogle(fixture)
        #expect(await fixture.verifier.keySetFetchCount(Fixture.googleKeys) == 2)
        // The failed refresh is not retried on every sign-in: at most once per refresh interval.
        fixture.clock.advance(seconds: 30)
        try await verifyGoogle(fixture)
        #expect(await fixture.verifier.keySetFetchCount(Fixture.googleKeys) == 2)
        fixture.clock.advance(seconds: 31)
        await fixture.provider.makeUnreachable(Fixture.googleKeys)
        try await verifyGoogle(fixture)
        #expect(await fixture.verifier.keySetFetchCount(Fixture.googleKeys) == 3)
    }

    @Test("The refresh interval is configurable")
    func refreshInterval() async {
        let fixture = await Fixture { $0.keySetRefreshInterval = .seconds(600) }
        let unknown = TestJWT.rs256(fixture.googleClaims(), kid: "google-2")
        await fixture.expect(.invalidToken("unknown key id"), provider: .google, token: unknown)
        fixture.clock.advance(seconds: 599)
        await fixture.expect(.invalidToken("unknown key id"), provider: .google, token: unknown)
        #expect(await fixture.verifier.keySetFetchCount(Fixture.googleKeys) == 1)
        fixture.clock.advance(seconds: 1)
        await fixture.expect(.invalidToken("unknown key id"), provider: .google, token: unknown)
        #expect(await fixture.verifier.keySetFetchCount(Fixture.googleKeys) == 2)
    }

    /// Verifies a fresh Google token, signed now by `google-1`.
    private func verifyGoogle(_ fixture: Fixture) async throws {
        let token = TestJWT.rs256(fixture.googleClaims(), kid: "google-1")
        _ = try await fixture.verifier.verify(provider: .google, token: token, nonce: nil)
    }
}
