import Crypto
import Foundation

extension HaleClient {
    /// Uploads the Health app's "Export All Health Data" archive (`export.zip`, or its `export.xml`) for the server
    /// to import in the background; returns the queued import, to follow with `healthImport(_:)`.
    ///
    /// The file is streamed from disk, never read into memory whole, with its SHA-256 in `Content-Digest` so the
    /// server refuses a body that arrives different. Records without an offset are taken in `timeZone`, else the
    /// account's. Give `attestation` when the server requires attested health writes.
    public func uploadAppleHealthExport(
        _ file: URL, timeZone: TimeZone? = nil, attestation: HealthWriteAttestation? = nil
    ) async throws -> HealthImport {
        let digest = try Self.sha256(ofFileAt: file)
        var headers = [
            "Content-Digest": "sha-256=:\(Data(digest).base64EncodedString()):",
            "Content-Type": file.pathExtension.lowercased() == "xml" ? "application/xml" : "application/zip",
        ]
        if let timeZone { headers["X-Timezone"] = timeZone.identifier }
        if let attestation {
            let nonce = try await attestationNonce().nonce
            headers.merge(try await attestation.headers(nonce: nonce, bodyDigest: digest)) { $1 }
        }
        let data = try await send("POST", "api/v1/health/imports", headers: headers, file: file, as: .session)
        return try Self.decode(ImportAnswer.self, from: data).import
    }

    /// An uploaded export's import: its status, progress and summary.
    public func healthImport(_ id: String) async throws -> HealthImport {
        let path = "api/v1/health/imports/\(id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? id)"
        let answer: ImportAnswer = try await send("GET", path, as: .session)
        return answer.import
    }

    /// SHA-256 of a file, read a megabyte at a time.
    static func sha256(ofFileAt file: URL) throws -> [UInt8] {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        var hash = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hash.update(data: chunk)
        }
        return Array(hash.finalize())
    }

    private struct ImportAnswer: Decodable {
        let `import`: HealthImport
    }
}
