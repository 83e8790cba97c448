import Foundation
import HealthExport
import HealthSamples

extension AppleHealthImport {
    /// A batch read from the file and checked by the sync, ending at a boundary of the file.
    struct ParsedBatch: Sendable {
        var checked: HealthSync.CheckedBatch
        /// What the events read since the last batch came to, its samples not yet stored.
        var read: Summary
        /// The reader's events from the file's start through this batch's end.
        var events: Int
        /// The boundary this batch ends at.
        var offset: Int64
        var progress: Progress
    }

    /// The file's batches from `start`, parsed and checked by the sync (dates, units, plausibility) on a thread of
    /// its own, two batches ahead. Each ends at a boundary of the file, after `batchSize` samples or, where few
    /// records are samples, after `checkpointBytes`; its counts travel with its samples, so no checkpoint counts an
    /// event whose sample is not stored with it.
    func batches(
        of url: URL, into account: AccountID, zone: TimeZone, from start: Checkpoint,
        consented: Set<HealthSampleType>
    ) -> OffThreadSequence<ParsedBatch> {
        let (sync, size, limits) = (sync, batchSize, limits)
        return OffThreadSequence(ahead: 2) { yield in
            // A checkpoint without a boundary (stored before there were any) is reached by counting events again.
            let resuming = start.offset > 0
            var reader = resuming ? AppleHealthExportReader(resumingAt: start.offset) : AppleHealthExportReader()
            var event = resuming ? start.events : 0
            var samples: [ImportedSample] = []
            var read = Summary()
            var recordsRead = start.summary.recordsRead
            var position: ExportFile.Progress?
            var handedOn = start.offset
            func handOn(at offset: Int64) throws {
                let checked = try sync.check(Self.syncBatch(of: samples), account: account, zone: zone)
                let progress = Progress(
                    phase: "importing", recordsRead: recordsRead, bytesRead: position?.bytesRead ?? offset,
                    fraction: position?.fraction ?? 0)
                try yield(
                    ParsedBatch(checked: checked, read: read, events: event, offset: offset, progress: progress))
                samples.removeAll(keepingCapacity: true)
                read = Summary()
                handedOn = offset
            }
            try ExportFile.read(url, from: start.offset, limit: limits.maximumXMLBytes) { data, chunkEnd in
                position = chunkEnd
                try reader.feed(data) { next in
                    if case .boundary(let offset) = next {
                        guard event >= start.events,
                            samples.count >= size || offset - handedOn >= Self.checkpointBytes
                        else { return }
                        try handOn(at: offset)
                        return
                    }
                    event += 1
                    guard event > start.events else { return }
                    if case .record = next { recordsRead += 1 }
                    guard let sample = Self.classify(next, into: &read) else { return }
                    guard consented.contains(sample.type) else {
                        read.skippedWithoutConsent[sample.type.rawValue, default: 0] += 1
                        return
                    }
                    samples.append(sample)
                }
            }
            try reader.finish()
            try handOn(at: reader.offset)
        }
    }

    /// Reads the file from `start` without storing anything, on a thread of its own, until its end or until
    /// `pausing` says so after a chunk: an error here leaves the account as it was. Returns how far it checked.
    func check(
        _ url: URL, from start: CheckProgress, pausing: @Sendable () async -> Bool,
        progress: @Sendable (Progress) -> Void
    ) async throws -> CheckProgress {
        let limits = limits
        let checked = OffThreadSequence<(progress: Progress, reached: CheckProgress)>(ahead: 2) { yield in
            var reader =
                start.offset > 0
                ? AppleHealthExportReader(resumingAt: start.offset, checkingOnly: true)
                : AppleHealthExportReader(checkingOnly: true)
            var records = start.records
            var reached = start
            try ExportFile.read(url, from: start.offset, limit: limits.maximumXMLBytes) { data, position in
                try reader.feed(data) { event in
                    switch event {
                    case .record:
                        records += 1
                        guard records <= limits.maximumRecords else {
                            throw ExportError(
                                "The export holds more than \(limits.maximumRecords) records, the most this server"
                                    + " imports.")
                        }
                    case .boundary(let offset):
                        reached.offset = offset
                        reached.records = records
                    case .skipped: break
                    }
                }
                try yield(
                    (
                        Progress(
                            phase: "checking", recordsRead: records, bytesRead: position.bytesRead,
                            fraction: position.fraction),
                        reached
                    ))
            }
            try reader.finish()
            reached.complete = true
            reached.records = records
            reached.offset = reader.offset
            try yield(
                (Progress(phase: "checking", recordsRead: records, bytesRead: reader.offset, fraction: 1), reached))
        }
        var latest = start
        for try await (reached, at) in checked {
            progress(reached)
            latest = at
            // Only past a boundary this run reached: a run that paused where it began would never end.
            if !at.complete, at.offset > start.offset, await pausing() { return at }
        }
        // Cancelled, the stream ends early: that is not a file checked whole.
        try Task.checkCancellation()
        guard latest.complete else { throw CancellationError() }
        return latest
    }

    /// The samples as the SDK would sync them from HealthKit, identified by their content.
    static func syncBatch(of samples: [ImportedSample]) -> HealthSyncBatch {
        HealthSyncBatch(
            provider: .healthkit, syncType: .initial,
            samples: samples.map { sample in
                HealthSyncSample(
                    id: sample.identity, type: sample.typeIdentifier, value: sample.value, unit: sample.unit,
                    startDate: sample.start.iso8601, endDate: sample.end.iso8601, timeZoneOffset: sample.start.offset,
                    sourceBundle: nil, deviceModel: sample.deviceModel, userEntered: sample.userEntered)
            })
    }

    /// The sample a record makes, or `nil` after counting why it makes none.
    static func classify(_ event: AppleHealthExportReader.Event, into summary: inout Summary) -> ImportedSample? {
        switch event {
        case .boundary:
            return nil
        case .skipped(let name):
            summary.skip(type: name)
            return nil
        case .record(let record):
            summary.recordsRead += 1
            switch ImportedSample.from(record) {
            case .success(let sample):
                return sample
            case .failure(.type(let type)):
                summary.skip(type: type)
            case .failure(.malformed(let attribute)):
                summary.rejected["malformed \(attribute)", default: 0] += 1
            }
            return nil
        }
    }
}
