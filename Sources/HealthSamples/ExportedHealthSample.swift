/// A synced sample as the health export writes it: the server encodes it, page by page, into the export's
/// `samples`, and the SDK decodes the same type (`HaleClient.healthExport()`).
public struct ExportedHealthSample: Sendable, Hashable, Codable {
    /// The id its platform gave it.
    public let id: String
    /// The provider it came through: `healthkit`, `health_connect`, ….
    public let provider: String
    /// Hale's type, such as `steps`.
    public let type: String
    /// The value, in `unit`.
    public let value: Double
    /// The type's canonical unit.
    public let unit: String
    /// Its start, ISO 8601 in UTC.
    public let startDate: String
    /// Its end, ISO 8601 in UTC.
    public let endDate: String
    /// The device's offset from UTC when it was recorded.
    public let utcOffsetSeconds: Int
    /// The app that wrote it.
    public let sourceBundle: String?
    /// The device's hardware model.
    public let deviceModel: String?
    /// The kind of device.
    public let deviceType: String?
    /// Whether a person typed it in.
    public let userEntered: Bool
    /// Its version on its platform, when the platform versions samples.
    public let version: Int64?
    /// When Hale first stored it, ISO 8601.
    public let createdAt: String
    /// When Hale last changed it, ISO 8601.
    public let updatedAt: String

    /// A sample with these fields.
    public init(
        id: String, provider: String, type: String, value: Double, unit: String, startDate: String, endDate: String,
        utcOffsetSeconds: Int, sourceBundle: String?, deviceModel: String?, deviceType: String?, userEntered: Bool,
        version: Int64?, createdAt: String, updatedAt: String
    ) {
        self.id = id
        self.provider = provider
        self.type = type
        self.value = value
        self.unit = unit
        self.startDate = startDate
        self.endDate = endDate
        self.utcOffsetSeconds = utcOffsetSeconds
        self.sourceBundle = sourceBundle
        self.deviceModel = deviceModel
        self.deviceType = deviceType
        self.userEntered = userEntered
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// One day's total of one type as the health export writes it, with and without what people typed in.
public struct ExportedDailyTotal: Sendable, Hashable, Codable {
    /// The local day, `YYYY-MM-DD`.
    public let date: String
    /// Hale's type.
    public let type: String
    /// The day's total.
    public let value: Double
    /// The day's total without user-entered samples.
    public let valueExcludingUserEntered: Double

    /// A total with these fields.
    public init(date: String, type: String, value: Double, valueExcludingUserEntered: Double) {
        self.date = date
        self.type = type
        self.value = value
        self.valueExcludingUserEntered = valueExcludingUserEntered
    }
}
