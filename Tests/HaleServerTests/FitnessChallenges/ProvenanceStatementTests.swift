import ByteEncoding
import Crypto
import Foundation
import HaleTesting
import JWTKit
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Signed provenance statements: per day, which totals came from which attested app instance, signed with a key
/// published beside the access-token keys, checkable offline with a standard JWS library.
@Suite("Health provenance: signed statements per day")
struct ProvenanceStatementTests {
    typealias Member = VerifiedChallengeTests.Member
    typealias Verified = VerifiedChallengeTests

    static let range = "?startDate=2025-10-27&endDate=2025-10-30"

    /// The member's statements, as `GET /api/v1/health/provenance` answers them.
    static func statements(_ member: Member, query: String = range) async throws -> [[String: String]] {
        let response = try await member.app.testing().sendRequest(
            .GET, "/api/v1/health/provenance" + query, headers: .bearer(member.token))
        #expect(response.status == .ok, "\(response.body.string)")
        return try response.json()["statements"] as? [[String: String]] ?? []
    }

    /// The JWK Set the server publishes.
    static func keySet(_ app: Application) async throws -> Data {
        let response = try await app.testing().sendRequest(.GET, "/.well-known/jwks.json")
        #expect(response.status == .ok)
        return Data(buffer: response.body)
    }

    /// Two days of a watch's steps, the first also with a typed-in entry, synced attested; one unattested walk.
    static func seed(_ member: Member) async throws -> Data {
        let attested = [
            Verified.sample("walk", 4_000), Verified.sample("typed", 900, hours: 13...14, userEntered: true),
            Verified.sample("next-day", 2_500, day: "2025-10-29"),
        ]
        try await member.sync(attested, attested: true)
        try await member.sync([Verified.sample("unattested", 700, day: "2025-10-30")], attested: false)
        return Data(HealthSampleSyncTests.batch(attested).utf8)
    }

    @Test(
        "a statement a day with attested data: the key, the app, the totals and the write that proved them",
        arguments: TestDatabase.available)
    func statementPerDay(database: TestDatabase) async throws {
        try await Verified.withMember(on: database) { member in
            let body = try await Self.seed(member)
            let statements = try await Self.statements(member)
            #expect(statements.map { $0["date"] } == ["2025-10-28", "2025-10-29"], "none for unattested days")
            let keys = JWTKeyCollection()
            try await keys.add(jwksJSON: String(decoding: try await Self.keySet(member.app), as: UTF8.self))
            let claims = try await keys.verify(try #require(statements[0]["statement"]), as: ProvenanceStatement.self)
            #expect(claims.sub.value == member.account.description && claims.day == "2025-10-28")
            let source = try #require(claims.sources.first)
            #expect(claims.sources.count == 1)
            #expect(source.platform == "ios" && source.keyId == member.writer.keyID && source.appVersion == nil)
            #expect(source.totals == [.init(type: "steps", value: 4_000, unit: "count")], "typed-in never counts")
            #expect(source.samples == 1 && source.writeCount == 1)
            let write = try #require(source.writes.first)
            #expect(write.bodySha256 == Base64URL.encode(Array(SHA256.hash(data: body))))
            #expect((write.counter ?? 0) >= 1 && !write.nonce.isEmpty)
        }
    }

    @Test("a statement is typed hale-provenance+jwt and never passes as an access token")
    func neverAnAccessToken() async throws {
        try await Verified.withMember { member in
            _ = try await Self.seed(member)
            let statement = try #require(try await Self.statements(member).first?["statement"])
            let header = try #require(statement.split(separator: ".").first)
            let decoded =
                try JSONSerialization.jsonObject(
                    with: try #require(Base64URL.decode(String(header)))) as? [String: Any]
            #expect(decoded?["typ"] as? String == "hale-provenance+jwt" && decoded?["alg"] as? String == "ES256")
            await #expect(throws: HaleError.self) { try await member.app.hale.accessTokens.verify(statement) }
            let asBearer = try await member.app.testing().sendRequest(
                .GET, "/api/v1/health/provenance" + Self.range, headers: .bearer(statement))
            #expect(asBearer.status == .unauthorized)
        }
    }

    @Test("the health export holds every day's statement with provenance=true, and none without")
    func export() async throws {
        try await Verified.withMember { member in
            _ = try await Self.seed(member)
            func export(_ query: String) async throws -> TestingHTTPResponse {
                try await member.app.testing().sendRequest(
                    .GET, "/api/v1/health/export" + query, headers: .bearer(member.token))
            }
            let with = try await export("?provenance=true")
            #expect(with.status == .ok)
            let statements = try with.json()["provenance"] as? [[String: String]]
            #expect(statements?.map { $0["date"] } == ["2025-10-28", "2025-10-29"])
            #expect(try await export("").json()["provenance"] == nil)
            #expect(try await export("?provenance=maybe").status == .badRequest)
        }
    }

    @Test("the app's backend reads any account's statements with an admin key, and only with one")
    func adminRoute() async throws {
        try await Verified.withMember { member in
            _ = try await Self.seed(member)
            let key = try await member.app.hale.adminKeys.create(name: "provenance")
            let path = "/api/v1/admin/accounts/\(member.account)/health/provenance" + Self.range
            let admin = try await member.app.testing().sendRequest(.GET, path, headers: .bearer(key.key))
            #expect(admin.status == .ok, "\(admin.body.string)")
            #expect((try admin.json()["statements"] as? [[String: String]])?.count == 2)
            let asMember = try await member.app.testing().sendRequest(.GET, path, headers: .bearer(member.token))
            #expect(asMember.status == .unauthorized)
        }
    }

    @Test(
        "a range is checked: both days, in order, at most 31 days",
        arguments: [
            "?startDate=2025-10-01&endDate=2025-11-01", "?startDate=2025-10-30&endDate=2025-10-28",
            "?startDate=2025-10-28", "?startDate=28-10-2025&endDate=2025-10-30",
            "?startDate=2025-10-28&endDate=2025-10-30&zone=UTC",
        ])
    func ranges(query: String) async throws {
        try await Verified.withMember { member in
            let response = try await member.app.testing().sendRequest(
                .GET, "/api/v1/health/provenance" + query, headers: .bearer(member.token))
            #expect(response.status == .badRequest, "\(query): \(response.body.string)")
        }
    }

    @Test(
        "PyJWT verifies a statement against /.well-known/jwks.json after the access-token keys were rotated",
        .enabled(if: TestProcess.succeeds([TestPython.executable, "-c", "import jwt, cryptography"])))
    func pyJWTAfterRotation() async throws {
        try await Verified.withMember { member in
            _ = try await Self.seed(member)
            let statement = try #require(try await Self.statements(member).first?["statement"])
            let before = try await Self.keySet(member.app)
            try await member.app.hale.rotateSigningKey()
            try await member.app.hale.rotateSigningKey()
            let after = try await Self.keySet(member.app)
            #expect(before != after, "the rotation published new access-token keys")
            let directory = try TestProcess.makeTemporaryDirectory("provenance")
            defer { try? FileManager.default.removeItem(at: directory) }
            try after.write(to: directory.appendingPathComponent("jwks.json"))
            try Data(statement.utf8).write(to: directory.appendingPathComponent("statement.jws"))
            let script = """
                import json, sys, jwt
                folder = sys.argv[1]
                token = open(folder + "/statement.jws").read()
                keys = jwt.PyJWKSet.from_dict(json.load(open(folder + "/jwks.json")))
                header = jwt.get_unverified_header(token)
                assert header["typ"] == "hale-provenance+jwt", header
                key = next(k for k in keys.keys if k.key_id == header["kid"])
                claims = jwt.decode(token, key.key, algorithms=["ES256"], options={"require": ["iss", "sub", "iat"]})
                print(json.dumps({"day": claims["day"], "sub": claims["sub"], "steps": claims["sources"][0]["totals"][0]["value"]}))
                """
            let result = try TestProcess.run([TestPython.executable, "-c", script, directory.path])
            #expect(result.status == 0)
            let printed = try JSONSerialization.jsonObject(with: result.output) as? [String: Any]
            #expect(printed?["day"] as? String == "2025-10-28")
            #expect(printed?["sub"] as? String == member.account.description)
            #expect(printed?["steps"] as? Double == 4_000)
        }
    }
}
