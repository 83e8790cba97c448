import Crypto
import Foundation
import Vapor

/// Uploads of an Apple Health export (`export.zip` or `export.xml`) for a background import, and their progress.
struct HealthImportRoutes: RouteCollection {
    let healthImports: HealthImports
    let health: HealthData
    let bearerTokens: BearerTokenVerifier
    let requestLimits: RequestLimits

    func boot(routes: any RoutesBuilder) throws {
        let imports = SignedInRoutes(
            routes.grouped("api", "v1", "health", "imports"),
            authenticatedBy: BearerAuthMiddleware(verifier: bearerTokens))
        registerUpload(on: imports)
        imports.get(":id", use: show)
    }

    /// The upload at the path of `routes`, the API's or the account page's twin: its body streams to the handler
    /// instead of being collected, behind budgets per client address and per account, as each upload may write
    /// gigabytes.
    @discardableResult
    func registerUpload(on routes: SignedInRoutes) -> Route {
        let limited = routes.grouped(
            requestLimits.perClient(.healthImportsPerIp), requestLimits.perAccount(.healthImportsPerAccount))
        let route = limited.on(.POST, body: .stream, use: upload)
        route.userInfo[BodyLimit.userInfoKey] = Int.max
        return route
    }

    /// Takes the account's place, streams the body to disk, checks it, and queues it: `202 Accepted` with the import
    /// and its `Location`. Refused before a byte is written when the account has an import already, or the
    /// declared size would not fit; whatever a refused or cut-off upload wrote is removed.
    func upload(_ request: Request, _ account: AuthenticatedAccount) async throws -> Response {
        let declared = try request.contentDigest()
        if health.writesRequireAttestation {
            guard let attestation = try request.attestationHeaders() else { throw HealthData.attestationRequired }
            guard let declared else { throw Self.digestRequired }
            try await health.verifyWrite(
                attestation, bodyDigest: declared, account: account.accountId, device: account.deviceId,
                logger: request.logger)
        }
        let zone = try await health.timeZone(of: account.accountId, sent: try request.timeZoneHeader())
        let length = request.headers.first(name: .contentLength).flatMap(Int64.init)
        let id = try await healthImports.reserveUpload(for: account.accountId, zone: zone, declaredBytes: length)
        let record: HealthImport
        do {
            let bytes = try await receive(request, id: id, of: account.accountId, digest: declared)
            record = try await healthImports.queueUpload(id, bytes: bytes, of: account.accountId)
        } catch {
            await healthImports.abandonUpload(id, of: account.accountId)
            throw error
        }
        let response = try await HealthImportEnvelope(import: HealthImportResponse(record)).encodeResponse(
            status: .accepted, for: request)
        // Beside the route it came through: the API's, or the account page's twin.
        response.headers.replaceOrAdd(
            name: .location, value: "\(request.url.path)/\(record.id.uuidString.lowercased())")
        return response
    }

    func show(_ request: Request, _ account: AuthenticatedAccount) async throws -> HealthImportEnvelope {
        let id = request.parameters.get("id") ?? ""
        let record = try await healthImports.find(id, of: account.accountId)
        return HealthImportEnvelope(import: HealthImportResponse(record))
    }

    /// Writes the body to the upload's partial file as it arrives (only its owner may read it), then moves it to
    /// its complete name; returns its size. Throws when the body is empty, over the limit, cut off, not what
    /// `digest` declared, or would leave the disk fuller than the floor; the caller removes what was written.
    private func receive(_ request: Request, id: UUID, of account: AccountID, digest: [UInt8]?) async throws -> Int64 {
        let imports = healthImports
        let files = imports.files(for: id)
        let pool = request.application.threadPool
        let handle = try await pool.runIfActive {
            try PrivateDirectory.prepare(imports.directory, setting: "health.imports.directory")
            guard
                FileManager.default.createFile(
                    atPath: files.partial.path, contents: nil, attributes: [.posixPermissions: 0o600])
            else {
                throw CocoaError(.fileWriteUnknown)
            }
            return try FileHandle(forWritingTo: files.partial)
        }
        defer { try? handle.close() }
        var hash = SHA256()
        var bytes: Int64 = 0
        var checkedSpaceAt: Int64 = 0
        var notedAt = Date()
        for try await chunk in request.body {
            bytes += Int64(chunk.readableBytes)
            guard bytes <= imports.maximumBytes else { throw imports.tooLarge }
            if bytes - checkedSpaceAt >= Self.spaceCheckBytes {
                try imports.requireFreeSpace(for: 0)
                checkedSpaceAt = bytes
            }
            if Date().timeIntervalSince(notedAt) >= HealthImports.uploadNoteInterval {
                try await imports.noteUpload(id, of: account)
                notedAt = Date()
            }
            chunk.withUnsafeReadableBytes { hash.update(bufferPointer: $0) }
            let data = Data(buffer: chunk)
            try await pool.runIfActive { try handle.write(contentsOf: data) }
        }
        try await pool.runIfActive { try handle.close() }
        guard bytes > 0 else {
            throw HaleError.invalidRequest("The body must be an Apple Health export: export.zip or export.xml.")
        }
        if let digest, Array(hash.finalize()) != digest {
            throw HaleError.invalidRequest("Content-Digest does not match the body that arrived.")
        }
        try await pool.runIfActive { try FileManager.default.moveItem(at: files.partial, to: files.complete) }
        return bytes
    }

    /// How much of an upload is written between looks at the disk's free space.
    static let spaceCheckBytes: Int64 = 8 << 20

    static let digestRequired = HaleError.invalidRequest(
        "This server requires an attested upload: send Content-Digest (sha-256) with the X-Attestation headers.")
}

extension Request {
    /// The SHA-256 an upload declares in `Content-Digest` (RFC 9530: `sha-256=:BASE64:`); nil when it declares
    /// none, a 400 when the header is there but names no SHA-256 of 32 bytes.
    func contentDigest() throws -> [UInt8]? {
        guard let header = headers.first(name: "Content-Digest") else { return nil }
        for member in header.split(separator: ",") {
            let parts = member.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "sha-256" else { continue }
            let value = parts[1]
            guard value.count == 46, value.first == ":", value.last == ":",
                let bytes = Data(base64Encoded: String(value.dropFirst().dropLast())), bytes.count == 32
            else { break }
            return Array(bytes)
        }
        throw HaleError.invalidRequest("Content-Digest must hold sha-256=:BASE64: of the body's 32-byte SHA-256.")
    }
}
