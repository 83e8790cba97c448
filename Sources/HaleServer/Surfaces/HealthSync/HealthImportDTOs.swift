import Vapor

/// An import as the API answers it.
struct HealthImportResponse: Content {
    struct Progress: Content {
        let phase: String
        let recordsRead: Int
        let fraction: Double
    }

    struct Failure: Content {
        let code: String
        let message: String
    }

    let id: String
    let status: String
    let bytes: Int64
    let createdAt: String
    let updatedAt: String
    @Nullable var completedAt: String?
    @Nullable var progress: Progress?
    let summary: AppleHealthImport.Summary
    @Nullable var error: Failure?

    init(_ record: HealthImport) {
        id = record.id.uuidString.lowercased()
        status = record.status.rawValue
        bytes = record.bytes
        createdAt = ISO8601.string(record.createdAt)
        updatedAt = ISO8601.string(record.updatedAt)
        completedAt = record.completedAt.map(ISO8601.string)
        progress = record.phase.map {
            Progress(phase: $0, recordsRead: record.recordsRead, fraction: min(max(record.fraction, 0), 1))
        }
        summary = record.checkpoint.summary
        error = record.errorCode.map { Failure(code: $0, message: record.errorMessage ?? "") }
    }
}

/// `POST /api/v1/health/imports` and `GET /api/v1/health/imports/{id}`.
struct HealthImportEnvelope: Content {
    var success = true
    let `import`: HealthImportResponse
}
