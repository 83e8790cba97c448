import Foundation

/// Reads an export's `export.xml` in chunks: each top-level `Record` and `Workout`, with its metadata, and a count
/// of what is not a record Hale could take.
///
/// A `Correlation`'s records also appear at the top level, so those inside one are not read twice; an
/// `ActivitySummary` is a day's rings, not samples, and is counted as skipped with correlations.
///
/// Whatever the file, what the reader holds stays small: elements nest at most `maximumDepth` deep, a type is at
/// most `maximumTypeBytes` long, and `HealthData`'s children end at most `maximumBytesBetweenBoundaries` apart, so a
/// reader can always be stopped, and started again, at a boundary a bounded way back.
public struct AppleHealthExportReader: Sendable {
    /// What the reader found besides records.
    public enum Event: Sendable, Equatable {
        /// A record or workout, complete with its metadata.
        case record(AppleHealthRecord)
        /// An element that holds no sample Hale reads: `ActivitySummary`, `Correlation`.
        case skipped(String)
        /// The reader stands between two children of `HealthData`, at `offset`: a reader made with
        /// `init(resumingAt: offset)` reads the rest of the file as this one would.
        case boundary(offset: Int64)
    }

    /// The deepest elements nest: Apple's exports nest four deep (`HealthData`, `Workout`, `WorkoutRoute`,
    /// `FileReference`).
    public static let maximumDepth = 16
    /// The longest type of a `Record` or `Correlation`, in bytes: HealthKit's identifiers are under 70.
    public static let maximumTypeBytes = 128
    /// The most bytes between two boundaries: one of `HealthData`'s children, with the text before it. Apple's are
    /// under a few kilobytes.
    public static let maximumBytesBetweenBoundaries: Int64 = 16 << 20

    private var scanner: ExportElementScanner
    private var path: [String] = []
    private var open: AppleHealthRecord?
    private var sawRoot = false
    private var lastBoundary: Int64
    /// The export's `locale` attribute.
    public private(set) var locale: String?

    /// A reader at the start of a file. With `checkingOnly`, its records carry no attribute but their type (every
    /// one is still checked): what a pass that only checks the file whole needs, at a fraction of the work.
    public init(checkingOnly: Bool = false) {
        scanner = ExportElementScanner(keeping: Self.keeping(checkingOnly))
        lastBoundary = 0
    }

    /// A reader that reads a file from `offset`, a boundary an earlier reader reported: inside `HealthData`, between
    /// two of its children.
    public init(resumingAt offset: Int64, checkingOnly: Bool = false) {
        scanner = ExportElementScanner(keeping: Self.keeping(checkingOnly), startingAt: offset)
        path = ["HealthData"]
        sawRoot = true
        lastBoundary = offset
    }

    private static func keeping(_ checkingOnly: Bool) -> [String]? {
        checkingOnly ? ["type"] : nil
    }

    /// Bytes read so far, from the file's start.
    public var offset: Int64 { scanner.offset }

    /// Reads the next chunk of the XML.
    public mutating func feed(_ chunk: some Collection<UInt8>, _ event: (Event) throws -> Void) throws {
        var elements: [ExportElement] = []
        try scanner.feed(chunk) { elements.append($0) }
        for element in elements { try handle(element, event) }
        try checkDistance(to: scanner.offset)
    }

    /// Ends the file: it must have been an Apple Health export, and complete.
    public func finish() throws {
        try scanner.finish()
        guard sawRoot else { throw ExportError("This is not an Apple Health export: it has no HealthData element.") }
        guard path.isEmpty else {
            throw ExportError("The export ends before its HealthData element does: it is truncated.")
        }
    }

    private mutating func handle(_ element: ExportElement, _ event: (Event) throws -> Void) throws {
        try checkDistance(to: element.end)
        switch element.kind {
        case .start(let selfClosing):
            try start(element, event)
            if selfClosing {
                try end(element.name, event)
            } else {
                guard path.count < Self.maximumDepth else {
                    throw ExportError(
                        "Elements nest more than \(Self.maximumDepth) deep at byte \(element.end): this is not an"
                            + " Apple Health export.")
                }
                path.append(element.name)
            }
        case .end:
            guard path.last == element.name else {
                throw ExportError(
                    "</\(element.name.prefix(40))> at byte \(element.end) closes nothing open: the XML is not"
                        + " well-formed.")
            }
            path.removeLast()
            try end(element.name, event)
        }
        if path == ["HealthData"] {
            lastBoundary = element.end
            try event(.boundary(offset: element.end))
        }
    }

    private func checkDistance(to offset: Int64) throws {
        guard offset - lastBoundary <= Self.maximumBytesBetweenBoundaries else {
            throw ExportError(
                "More than \(Self.maximumBytesBetweenBoundaries) bytes from byte \(lastBoundary) hold no complete"
                    + " record: this is not an Apple Health export.")
        }
    }

    private mutating func start(_ element: ExportElement, _ event: (Event) throws -> Void) throws {
        let topLevel = path == ["HealthData"]
        switch element.name {
        case "HealthData" where path.isEmpty:
            sawRoot = true
            locale = element.attributes["locale"]
        case "Record" where topLevel:
            open = AppleHealthRecord(record: element.attributes)
            try checkType(open?.type ?? "", at: element.end)
        case "Workout" where topLevel:
            open = AppleHealthRecord(workout: element.attributes)
        case "MetadataEntry" where open != nil && path.count == 2:
            if element.attributes["key"] == "HKWasUserEntered", element.attributes["value"] == "1" {
                open?.userEntered = true
            }
        case "ActivitySummary" where topLevel:
            try event(.skipped("ActivitySummary"))
        case "Correlation" where topLevel:
            let type = element.attributes["type"] ?? "Correlation"
            try checkType(type, at: element.end)
            try event(.skipped(type))
        default:
            guard !path.isEmpty || element.name == "HealthData" else {
                throw ExportError("This is not an Apple Health export: its root element is \(element.name.prefix(40)).")
            }
        }
    }

    private func checkType(_ type: String, at offset: Int64) throws {
        guard type.utf8.count <= Self.maximumTypeBytes else {
            throw ExportError(
                "The type of the element ending at byte \(offset) is longer than \(Self.maximumTypeBytes) bytes:"
                    + " no HealthKit type is.")
        }
    }

    private mutating func end(_ name: String, _ event: (Event) throws -> Void) throws {
        guard path == ["HealthData"], name == "Record" || name == "Workout", let record = open else { return }
        open = nil
        try event(.record(record))
    }
}
