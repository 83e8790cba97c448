import HealthSamples
import Vapor
import WebAuthn

/// What the page does beyond the JSON APIs' own handlers: adding a passkey from the browser, the session list, and
/// deleting the account after a fresh passkey ceremony.
extension AccountPageRoutes {
    func addPasskeyOptions(
        _ request: Request, _ account: AuthenticatedAccount
    ) async throws -> CreationOptionsResponse {
        try await credentialChanges.requireToAdd(account)
        return CreationOptionsResponse(
            options: try await passkeys.registrationOptions(
                for: account.accountId, device: PasskeyDevice(platform: "web")))
    }

    func addPasskey(_ request: Request, _ account: AuthenticatedAccount) async throws -> Response {
        let body = try request.decodeStrict(AccountPageRegistration.self)
        let device = try body.browser?.device.checked(fieldPrefix: "browser.")
        let registered = try await credentialChanges.enrol(by: account) {
            try await passkeys.register(
                body.credential, account: account.accountId, registeredDevice: account.deviceId, device: device)
        }
        return try await PasskeyResponse(registered.passkey).encodeResponse(status: .created, for: request)
    }

    func sessionList(_ request: Request, _ account: AuthenticatedAccount) async throws -> AccountPageSessionList {
        let sessions = try await self.sessions.active(of: account.accountId)
        let devices = Dictionary(
            uniqueKeysWithValues: try await self.devices.list(for: account.accountId).map {
                ($0.device.id, $0.device)
            })
        return AccountPageSessionList(
            sessions: sessions.map { session in
                let device = session.deviceId.flatMap { devices[$0] }
                return AccountPageSessionList.Item(
                    id: session.id.description, signInMethod: session.signInMethod,
                    deviceId: session.deviceId?.description, deviceName: device?.name, platform: device?.deviceType,
                    createdAt: ISO8601.string(session.createdAt), lastUsedAt: ISO8601.string(session.lastUsedAt),
                    expiresAt: ISO8601.string(session.expiresAt), current: session.id == account.sessionId)
            })
    }

    func endSession(_ request: Request, _ account: AuthenticatedAccount) async throws -> Response {
        guard let session = request.parameters.get("sessionId").flatMap(SessionID.init),
            try await sessions.revoke(session, of: account.accountId)
        else {
            throw HaleError(.resourceNotFound, .notFound, message: "This account has no active session with this id.")
        }
        return session == account.sessionId
            ? try await signedOut(request) : try await SuccessResponse().encodeResponse(for: request)
    }

    /// `?startDate=…&endDate=…&measure=steps|distance|calories|duration`: the source that counted on each day.
    func daySources(_ request: Request, _ account: AuthenticatedAccount) async throws -> AccountPageDaySources {
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
            try await healthDaySources.sources(
                of: account.accountId, measure: measure, from: try date("startDate"),
                through: try date("endDate")))
    }

    /// The account's three newest imports, newest first: the page follows one still under way after a reload.
    func recentImports(_ request: Request, _ account: AuthenticatedAccount) async throws -> AccountPageImports {
        let imports = try await healthImports.recent(of: account.accountId, limit: 3)
        return AccountPageImports(imports: imports.map(HealthImportResponse.init))
    }

    func deletionOptions(_ request: Request, _ account: AuthenticatedAccount) async throws -> AccountPageCeremony {
        let (options, ceremony) = try await passkeys.authenticationOptions()
        return AccountPageCeremony(options: options, ceremony: ceremony.description)
    }

    /// Deletes the account once one of its passkeys shows the person is there, whenever the page's session began.
    func deleteAccount(_ request: Request, _ account: AuthenticatedAccount) async throws -> Response {
        let body = try request.decodeStrict(AccountPagePresence.self)
        guard let ceremony = ServerChallengeID(body.ceremony) else { throw HaleError.invalidChallenge }
        try await passkeys.confirmPresence(
            body.credential, ceremony: ceremony, of: account.accountId, logger: request.logger)
        guard try await accounts.delete(account.accountId) else { throw HaleError.invalidToken }
        _ = try? await socialSignIn.appleTokens?.revokeDue(limit: 5, logger: request.logger)
        return try await signedOut(request)
    }
}
