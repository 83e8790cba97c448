/// One `Record` or `Workout` of an export, as written: the raw attributes Hale reads, and its metadata.
public struct AppleHealthRecord: Sendable, Equatable {
    /// `Record` or `Workout`.
    public enum Kind: Sendable, Equatable {
        case record
        case workout
    }

    /// A `Record` or a `Workout`.
    public var kind: Kind
    /// `HKQuantityTypeIdentifierStepCount`, …; `HKWorkoutTypeIdentifier` for a workout.
    public var type: String
    /// `count`, `km`, `Cal`, `min`, `%`, …
    public var unit: String?
    /// The value as written (a workout's duration).
    public var value: String?
    /// The app or device that wrote it, by the name the person sees (`Ada’s Apple Watch`).
    public var sourceName: String?
    /// That source's version.
    public var sourceVersion: String?
    /// The `HKDevice` description.
    public var device: String?
    /// When it was written, as the export writes dates.
    public var creationDate: String?
    /// Its start, as the export writes dates (`AppleHealthDate`).
    public var startDate: String?
    /// Its end.
    public var endDate: String?
    /// `HKWasUserEntered` was 1.
    public var userEntered = false

    /// A record from a `Record`'s attributes.
    init(record attributes: ExportAttributes) {
        kind = .record
        type = attributes["type"] ?? ""
        unit = attributes["unit"]
        value = attributes["value"]
        sourceName = attributes["sourceName"]
        sourceVersion = attributes["sourceVersion"]
        device = attributes["device"]
        creationDate = attributes["creationDate"]
        startDate = attributes["startDate"]
        endDate = attributes["endDate"]
    }

    /// A record from a `Workout`'s attributes: its duration is the value.
    init(workout attributes: ExportAttributes) {
        self.init(record: attributes)
        kind = .workout
        type = "HKWorkoutTypeIdentifier"
        value = attributes["duration"]
        unit = attributes["durationUnit"]
    }
}
