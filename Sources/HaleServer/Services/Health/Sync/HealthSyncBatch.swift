import Foundation

/// A sync as a client sends it, before any checks: seed 004's samples and deletions, or seed 000's daily totals.
public struct HealthSyncBatch: Sendable {
    /// One sample as sent.
    public struct Sample: Sendable {
        /// The HealthKit UUID or Health Connect record id; nil for clients that send none.
        public var id: String?
        /// `steps`, `activeMinutes`, `HKQuantityTypeIdentifierStepCount`, …
        public var type: String
        /// The value in `unit`.
        public var value: Double
        /// `count`, `m`, `km`, `kcal`, `kJ`, `min`, `%`, …
        public var unit: String
        /// ISO 8601 with a zone.
        public var startDate: String
        /// ISO 8601 with a zone.
        public var endDate: String
        /// `±HH:MM`: the device's offset at the start. Without it, the offset written in `startDate`, else the
        /// account's time zone.
        public var timeZoneOffset: String?
        /// The app that wrote the sample.
        public var sourceBundle: String?
        /// The device model (`Watch6,2`, `iPhone15,3`).
        public var deviceModel: String?
        /// Health Connect's device type (`TYPE_WATCH`, `TYPE_PHONE`).
        public var deviceType: String?
        /// Whether a person typed it in.
        public var userEntered: Bool
        /// A version that increases with each change; or use `lastModified`.
        public var version: Int64?
        /// Health Connect's last-modified time, ISO 8601: the version when `version` is absent.
        public var lastModified: String?

        /// A sample.
        public init(
            id: String?, type: String, value: Double, unit: String, startDate: String, endDate: String,
            timeZoneOffset: String? = nil, sourceBundle: String? = nil, deviceModel: String? = nil,
            deviceType: String? = nil, userEntered: Bool = false, version: Int64? = nil, lastModified: String? = nil
        ) {
            self.id = id
            self.type = type
            self.value = value
            self.unit = unit
            self.startDate = startDate
            self.endDate = endDate
            self.timeZoneOffset = timeZoneOffset
            self.sourceBundle = sourceBundle
            self.deviceModel = deviceModel
            self.deviceType = deviceType
            self.userEntered = userEntered
            self.version = version
            self.lastModified = lastModified
        }
    }

    /// `healthkit`, `health_connect` or `googlefit`.
    public var provider: String?
    /// `initial`, `manual` or `background`; default `manual`.
    public var syncType: String?
    /// How far back the client read; default 30, 7 or 3 by `syncType`.
    public var lookbackDays: Int?
    /// The client's id for this batch: a retry with the same id returns the first sync's log.
    public var batchId: String?
    /// The samples.
    public var samples: [Sample]
    /// Platform ids of samples deleted on the device (HealthKit's `HKDeletedObject`, Health Connect's deletions).
    public var deletions: [String]

    /// A batch.
    public init(
        provider: String?, syncType: String? = nil, lookbackDays: Int? = nil, batchId: String? = nil,
        samples: [Sample], deletions: [String] = []
    ) {
        self.provider = provider
        self.syncType = syncType
        self.lookbackDays = lookbackDays
        self.batchId = batchId
        self.samples = samples
        self.deletions = deletions
    }
}

/// What a sync did: its log, and why each refused sample was refused.
public struct HealthSyncResult: Sendable {
    /// A refused sample: its position in the batch and a stable code.
    public struct Rejection: Sendable, Equatable {
        /// The sample's index in `samples`.
        public let index: Int
        /// `INVALID_DATE`, `UNKNOWN_UNIT`, `VALUE_NEGATIVE`, …
        public let code: String
        /// What is wrong, without the value.
        public let message: String
    }

    /// The sync's log.
    public let log: HealthSyncLog
    /// The refused samples.
    public let rejected: [Rejection]
    /// Whether this answers a retry of a batch already synced, which changed nothing.
    public let replayed: Bool
}
