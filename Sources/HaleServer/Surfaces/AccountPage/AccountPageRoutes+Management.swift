import HealthSamples
import Vapor
import WebAuthn

/// What the page does beyond the JSON APIs' own handlers: adding a passkey from the browser, the session list, and
/// deleting the account after a fresh passkey ceremony.
extension AccountPageRoutes {
    func addPasskeyOptions(_ request: Request) async throws -> CreationOptionsResponse {
        let identity = try request.account
        try await request.hale.credentialChanges.requireToAdd(identity)
        return CreationOptionsResponse(
            options: try await request.hale.passkeys.registrationOptions(
                for: identity.accountId, device: PasskeyDevice(platform: "web")))
    }

    func addPasskey(_ request: Request) async throws -> Response {
        let identity = try request.account
        let body = try request.decodeStrict(AccountPageRegistration.self)
        let device = try body.browser?.device.checked(fieldPrefix: "browser.")
        let registered = try await request.hale.credentialChanges.enrol(by: identity) {
            try await request.hale.passkeys.register(
                body.credential, account: identity.accountId, registeredDevice: identity.deviceId, device: device)
        }
        return try await PasskeyResponse(registered.passkey).encodeResponse(status: .created, for: request)
    }

    func sessions(_ request: Request) async throws -> AccountPageSessionList {
        let identity = try request.account
        let sessions = try await request.hale.sessions.active(of: identity.accountId)
        let devices = Dictionary(
            uniqueKeysWithValues: try await request.hale.devices.list(for: identity.accountId).map {
                ($0.device.id, $0.device)
            })
        return AccountPageSessionList(
            sessions: sessions.map { session in
                let device = session.deviceId.flatMap { devices[$0] }
                return AccountPageSessionList.Item(
                    id: session.id.description, signInMethod: session.signInMethod,
                    deviceId: session.deviceId?.description, deviceName: device?.name, platform: device?.deviceType,
                    createdAt: ISO8601.string(session.createdAt), lastUsedAt: ISO8601.string(session.lastUsedAt),
                    expiresAt: ISO8601.string(session.expiresAt), current: session.id == identity.sessionId)
            })
    }

    func endSession(_ request: Request) async throws -> Response {
        let identity = try request.account
        guard let session = request.parameters.get("sessionId").flatMap(SessionID.init),
            try await request.hale.sessions.revoke(session, of: identity.accountId)
        else {
            throw HaleError(.resourceNotFound, status: 404, message: "This account has no active session with this id.")
        }
        return session == identity.sessionId
            ? try await signedOut(request) : try await SuccessResponse().encodeResponse(for: request)
    }

    /// `?startDate=…&endDate=…&measure=steps|distance|calories|duration`: the source that counted on each day.
    func daySources(_ request: Request) async throws -> AccountPageDaySources {
        let query = try HealthRoutes.rejectQuery(request, allowing: ["startDate", "endDate", "measure"])
        func date(_ name: String) throws -> LocalDate {
            guard let text = try query.single(name), let date = LocalDate(text) else {
                throw HaleError.invalidRequest("\(name) must be a date as YYYY-MM-DD")
            }
            return date
        }
        guard let measure = try query.single("measure").flatMap(HealthDaySources.Measure.init(rawValue:)) else {
            throw HaleError.invalidRequest("measure must be one of: steps, distance, calories, duration")
        }
        return AccountPageDaySources(
            try await request.hale.healthDaySources.sources(
                of: try request.account.accountId, measure: measure, from: try date("startDate"),
                through: try date("endDate")))
    }

    /// The account's three newest imports, newest first: the page follows one still under way after a reload.
    func recentImports(_ request: Request) async throws -> AccountPageImports {
        let imports = try await request.hale.healthImports.recent(of: try request.account.accountId, limit: 3)
        return AccountPageImports(imports: imports.map(HealthImportResponse.init))
    }

    func deletionOptions(_ request: Request) async throws -> AccountPageCeremony {
        _ = try request.account
        let (options, ceremony) = try await request.hale.passkeys.authenticationOptions()
        return AccountPageCeremony(options: options, ceremony: ceremony.description)
    }

    /// Deletes the account once one of its passkeys shows the person is there, whenever the page's session began.
    func deleteAccount(_ request: Request) async throws -> Response {
        let identity = try request.account
        let body = try request.decodeStrict(AccountPagePresence.self)
        guard let ceremony = ServerChallengeID(body.ceremony) else { throw HaleError.invalidChallenge }
        try await request.hale.passkeys.confirmPresence(
            body.credential, ceremony: ceremony, of: identity.accountId, logger: request.logger)
        guard try await request.hale.accounts.delete(identity.accountId) else { throw HaleError.invalidToken }
        _ = try? await request.hale.socialSignIn.appleTokens?.revokeDue(limit: 5, logger: request.logger)
        return try await signedOut(request)
    }
}
