import Foundation

/// The process's resident memory, now and at its peak, as Linux reports it in `/proc/self/status`; exported at
/// `/metrics` so a benchmark can read the server's memory from outside.
public struct ProcessMemory: Equatable, Sendable {
    /// Resident set size, in bytes.
    public let residentBytes: Int
    /// The largest resident set size since the process started, in bytes.
    public let peakResidentBytes: Int

    /// The current figures, or nil where `/proc` does not exist.
    public static func current() -> ProcessMemory? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        return ProcessMemory(procStatus: status)
    }

    /// Reads `VmRSS` and `VmHWM`, which `/proc` gives in kB.
    init?(procStatus text: String) {
        var fields: [Substring: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(whereSeparator: { $0 == ":" || $0 == " " || $0 == "\t" })
            guard parts.count >= 2, let kilobytes = Int(parts[1]) else { continue }
            fields[parts[0]] = kilobytes * 1024
        }
        guard let resident = fields["VmRSS"], let peak = fields["VmHWM"] else { return nil }
        residentBytes = resident
        peakResidentBytes = peak
    }

    /// Prometheus text-format gauges.
    var prometheusText: String {
        """
        # HELP process_resident_memory_bytes Resident memory size in bytes.
        # TYPE process_resident_memory_bytes gauge
        process_resident_memory_bytes \(residentBytes)
        # HELP hale_process_peak_resident_memory_bytes The largest resident memory size since the process started.
        # TYPE hale_process_peak_resident_memory_bytes gauge
        hale_process_peak_resident_memory_bytes \(peakResidentBytes)

        """
    }
}
