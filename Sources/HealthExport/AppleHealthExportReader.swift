import Foundation

/// Reads an export's `export.xml` in chunks: each top-level `Record` and `Workout`, with its metadata, and a count
/// of what is not a record Hale could take.
///
/// A `Correlation`'s records also appear at the top level, so those inside one are not read twice; an
/// `ActivitySummary` is a day's rings, not samples, and is counted as skipped with correlations.
public struct AppleHealthExportReader: Sendable {
    /// What the reader found besides records.
    public enum Event: Sendable, Equatable {
        /// A record or workout, complete with its metadata.
        case record(AppleHealthRecord)
        /// An element that holds no sample Hale reads: `ActivitySummary`, `Correlation`.
        case skipped(String)
    }

    private var scanner: ExportElementScanner
    private var path: [String] = []
    private var open: AppleHealthRecord?
    private var sawRoot = false
    /// The export's `locale` attribute.
    public private(set) var locale: String?

    /// A reader at the start of a file. With `checkingOnly`, its events carry no attribute (every one is still
    /// checked): what a pass that only checks the file whole needs, at a fraction of the work.
    public init(checkingOnly: Bool = false) {
        scanner = ExportElementScanner(keeping: checkingOnly ? [] : nil)
    }

    /// Bytes read so far.
    public var offset: Int64 { scanner.offset }

    /// Reads the next chunk of the XML.
    public mutating func feed(_ chunk: some Collection<UInt8>, _ event: (Event) throws -> Void) throws {
        var elements: [ExportElement] = []
        try scanner.feed(chunk) { elements.append($0) }
        for element in elements { try handle(element, event) }
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
        switch element.kind {
        case .start(let selfClosing):
            try start(element, event)
            if selfClosing { try end(element.name, event) } else { path.append(element.name) }
        case .end:
            guard path.last == element.name else {
                throw ExportError(
                    "</\(element.name)> at byte \(offset) closes nothing open: the XML is not well-formed.")
            }
            path.removeLast()
            try end(element.name, event)
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
        case "Workout" where topLevel:
            open = AppleHealthRecord(workout: element.attributes)
        case "MetadataEntry" where open != nil && path.count == 2:
            if element.attributes["key"] == "HKWasUserEntered", element.attributes["value"] == "1" {
                open?.userEntered = true
            }
        case "ActivitySummary" where topLevel, "Correlation" where topLevel:
            try event(
                .skipped(
                    element.name == "Correlation" ? element.attributes["type"] ?? "Correlation" : "ActivitySummary"))
        default:
            guard !path.isEmpty || element.name == "HealthData" else {
                throw ExportError("This is not an Apple Health export: its root element is \(element.name.prefix(40)).")
            }
        }
    }

    private mutating func end(_ name: String, _ event: (Event) throws -> Void) throws {
        guard path == ["HealthData"], name == "Record" || name == "Workout", let record = open else { return }
        open = nil
        try event(.record(record))
    }
}
