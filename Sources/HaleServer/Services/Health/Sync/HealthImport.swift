import Foundation

/// An uploaded Apple Health export and how far its import is.
public struct HealthImport: Sendable, Equatable {
    /// Where an import is.
    public enum Status: String, Sendable, Codable {
        /// Its file is still arriving: the account's place is taken, nothing is queued yet.
        case uploading
        /// Uploaded, waiting for an instance to claim it.
        case queued
        /// Being imported.
        case running
        /// Imported; `summary` is final.
        case completed
        /// Stopped for good: `errorCode` and `errorMessage` say why. What was imported before stays.
        case failed
    }

    /// The import.
    public let id: UUID
    /// The account it imports into.
    public let accountId: AccountID
    /// Where it is.
    public var status: Status
    /// The uploaded file's size.
    public let bytes: Int64
    /// The IANA zone for records without an offset.
    public let timeZone: String
    /// When uploaded.
    public let createdAt: Date
    /// When last changed.
    public var updatedAt: Date
    /// When it completed or failed.
    public var completedAt: Date?
    /// `checking` (the file is read whole first) or `importing`; nil before it starts.
    public var phase: String?
    /// Records read in the current phase.
    public var recordsRead: Int
    /// The share of the file read in the current phase, 0 to 1.
    public var fraction: Double
    /// The records counted so far, and what they came to.
    public var checkpoint: AppleHealthImport.Checkpoint
    /// Why it failed: `INVALID_EXPORT`, `FILE_MISSING`, `CONSENT_REQUIRED`, `IMPORT_FAILED`.
    public var errorCode: String?
    /// What failed, in words.
    public var errorMessage: String?
    /// Claims of it so far, less those given back at a shutdown: a pass that fails on a server error counts.
    public var attempts = 0
}
