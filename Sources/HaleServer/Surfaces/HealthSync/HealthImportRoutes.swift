import Crypto
import Foundation
import Vapor

/// Uploads of an Apple Health export (`export.zip` or `export.xml`) for a background import, and their progress.
struct HealthImportRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let imports = routes.grouped("api", "v1", "health", "imports").grouped(BearerAuthMiddleware())
        imports.on(.POST, body: .stream, use: upload)
            .userInfo[BodyLimit.userInfoKey] = Int.max
        imports.get(":id", use: show)
    }

    /// Streams the body to disk, checks it, and queues it: `202 Accepted` with the import and its `Location`.
    func upload(_ request: Request) async throws -> Response {
        let identity = try request.account
        let account = identity.accountId
        let imports = request.hale.healthImports
        let declared = try request.contentDigest()
        if request.hale.health.writesRequireAttestation {
            guard let attestation = try request.healthWriteAttestation() else { throw HealthData.attestationRequired }
            guard let declared else { throw Self.digestRequired }
            try await request.hale.health.verifyWrite(
                attestation, bodyDigest: declared, account: account, device: identity.deviceId,
                logger: request.logger)
        }
        let zone = try await request.hale.health.timeZone(
            of: account, header: request.headers.first(name: "X-Timezone"))
        try await imports.checkCanUpload(for: account)
        if let length = request.headers.first(name: .contentLength).flatMap(Int64.init), length > imports.maximumBytes {
            throw tooLarge(imports)
        }
        let id = UUID()
        let bytes = try await receive(
            request, into: imports.files(for: id), limit: imports.maximumBytes, digest: declared)
        let record = try await imports.enqueue(id, bytes: bytes, account: account, zone: zone)
        let response = try await HealthImportEnvelope(import: HealthImportResponse(record)).encodeResponse(
            status: .accepted, for: request)
        // Beside the route it came through: the API's, or the account page's twin.
        response.headers.replaceOrAdd(
            name: .location, value: "\(request.url.path)/\(record.id.uuidString.lowercased())")
        return response
    }

    func show(_ request: Request) async throws -> HealthImportEnvelope {
        let id = request.parameters.get("id") ?? ""
        let record = try await request.hale.healthImports.find(id, of: try request.account.accountId)
        return HealthImportEnvelope(import: HealthImportResponse(record))
    }

    /// Writes the body to `files.partial` as it arrives, then moves it to `files.complete`; returns its size. Leaves
    /// nothing behind when the body is empty, over `limit`, cut off, or not what `digest` declared.
    private func receive(
        _ request: Request, into files: (partial: URL, complete: URL), limit: Int64, digest: [UInt8]?
    ) async throws -> Int64 {
        let pool = request.application.threadPool
        let directory = files.partial.deletingLastPathComponent()
        let handle = try await pool.runIfActive {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: files.partial.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown)
            }
            return try FileHandle(forWritingTo: files.partial)
        }
        var hash = SHA256()
        var bytes: Int64 = 0
        do {
            for try await chunk in request.body {
                bytes += Int64(chunk.readableBytes)
                guard bytes <= limit else { throw tooLarge(request.hale.healthImports) }
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
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(at: files.partial)
            throw error
        }
    }

    private func tooLarge(_ imports: HealthImports) -> HaleError {
        HaleError(
            .payloadTooLarge, status: 413,
            message: "An export may be at most \(imports.maximumBytes) bytes on this server.")
    }

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
