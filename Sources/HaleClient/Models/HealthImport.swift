import Foundation
import HealthSamples

/// An Apple Health export uploaded with `uploadAppleHealthExport`, and how far the server's import of it is.
public struct HealthImport: Sendable, Hashable, Decodable {
    /// How far an import has read, in its current phase.
    public struct Progress: Sendable, Hashable, Decodable {
        /// `checking` (the file is read whole first), then `importing`.
        public let phase: String
        /// Records read so far in this phase.
        public let recordsRead: Int
        /// The share of the file read in this phase, 0 to 1.
        public let fraction: Double
    }

    /// What the records counted so far came to; final once `status` is `completed`: the server's own type.
    public typealias Summary = HealthImportSummary

    /// Why an import failed.
    public struct Failure: Sendable, Hashable, Decodable {
        /// `INVALID_EXPORT`, `FILE_MISSING`, `CONSENT_REQUIRED`, `IMPORT_FAILED`.
        public let code: String
        /// What failed, in words.
        public let message: String
    }

    /// Its id.
    public let id: String
    /// `uploading`, `queued`, `running`, `completed` or `failed`.
    public let status: String
    /// The uploaded file's size.
    public let bytes: Int64
    /// When uploaded.
    public let createdAt: Date
    /// When last changed.
    public let updatedAt: Date
    /// When it completed or failed.
    public let completedAt: Date?
    /// Nil until the server starts it.
    public let progress: Progress?
    /// What it came to so far.
    public let summary: Summary
    /// Why it failed; nil unless `status` is `failed`.
    public let error: Failure?

    /// Whether the server is done with it: `completed` or `failed`.
    public var isFinished: Bool { status == "completed" || status == "failed" }
}
