import AsyncHTTPClient
import Foundation

/// The server's memory as it exports it at `/metrics`: resident now, and the peak since it started.
struct ServerMemory: Equatable {
    let residentBytes: Double
    let peakResidentBytes: Double

    /// Reads the two gauges from Prometheus's text format; `nil` when either is missing.
    init?(prometheus text: String) {
        func gauge(_ name: String) -> Double? {
            text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
                .flatMap { $0.split(separator: " ").last.flatMap { Double($0) } }
        }
        guard let resident = gauge("process_resident_memory_bytes"),
            let peak = gauge("hale_process_peak_resident_memory_bytes")
        else { return nil }
        residentBytes = resident
        peakResidentBytes = peak
    }

    /// A snapshot from the running server, or `nil` if it exports none.
    static func read(from server: URL, with client: HTTPClient) async -> ServerMemory? {
        await ServerRequestTimes.metricsText(from: server, with: client).flatMap(ServerMemory.init(prometheus:))
    }
}
