import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// An account with a registered device signed in on it, an admin key, and the calls of the confirmation flow.
struct ConfirmationHTTP {
    let app: Application
    let api: DeviceAPI
    let client: DeviceClient
    let account: AccountID
    let deviceId: String
    /// The device session's access token.
    let deviceToken: String
    let adminKey: String

    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    /// Runs `body` against a Hale on `clock` with an account whose `flavour` device is registered and signed in.
    static func run(
        _ flavour: DeviceFlavour = .iOS, on database: TestDatabase = .sqlite, clock: TestClock = TestClock(start),
        settings: [String: String] = [:], _ body: (ConfirmationHTTP) async throws -> Void
    ) async throws {
        try await withHale(on: database, clock: clock.clock, settings: settings) { app in
            let api = DeviceAPI(app: app)
            let (account, bearer) = try await makeAccount(app)
            let client = try DeviceClient(flavour)
            let deviceId = try await api.register(client, bearer: bearer)
            let signedIn = try api.decode(DeviceAPI.SignedIn.self, try await api.signIn(client))
            let adminKey = try await app.hale.adminKeys.create(name: "backend").key
            try await body(
                ConfirmationHTTP(
                    app: app, api: api, client: client, account: account.id, deviceId: deviceId,
                    deviceToken: signedIn.tokens.accessToken, adminKey: adminKey))
        }
    }

    func create(_ body: String, key: String? = nil) async throws -> TestingHTTPResponse {
        try await app.testing().sendRequest(
            .POST, "/api/v1/admin/confirmations", headers: .json(bearer: key ?? adminKey), body: .json(body))
    }

    /// A payment confirmation for the account; answers its JSON.
    func created(payload: String = #"{"amount":"49.90","currency":"EUR","to":"Ana"}"#, expiresIn: Int = 300)
        async throws -> [String: Any]
    {
        let response = try await create(
            #"{"accountId":"\#(account)","actionType":"payment.approve","actionPayload":\#(payload),"#
                + #""expiresIn":\#(expiresIn)}"#)
        #expect(response.status == .created, "\(response.body.string)")
        return try response.json()["confirmation"] as? [String: Any] ?? [:]
    }

    func get(_ path: String, bearer: String? = nil) async throws -> TestingHTTPResponse {
        try await app.testing().sendRequest(.GET, path, headers: .bearer(bearer ?? deviceToken))
    }

    /// The device's signature of `decision` over the confirmation, as the app makes it.
    func signature(
        _ confirmation: [String: Any], _ decision: ConfirmationMessage.Decision, by signer: DeviceClient? = nil
    )
        throws -> String
    {
        let message = ConfirmationMessage(
            confirmationId: try #require(ConfirmationID(confirmation["id"] as? String ?? "")),
            actionType: confirmation["actionType"] as? String ?? "",
            actionPayload: confirmation["actionPayload"] as? String ?? "", decision: decision)
        return try (signer ?? client).sign(message.challenge)
    }

    func answer(
        _ id: String, _ decision: String, signature: String, bearer: String? = nil, extra: String = ""
    ) async throws -> TestingHTTPResponse {
        try await app.testing().sendRequest(
            .POST, "/api/v1/confirmations/\(id)/answer", headers: .json(bearer: bearer ?? deviceToken),
            body: .json(#"{"decision":"\#(decision)","signature":"\#(signature)"\#(extra)}"#))
    }
}
