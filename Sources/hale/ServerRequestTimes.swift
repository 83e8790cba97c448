import AsyncHTTPClient
import Foundation

/// The server's own account of one route's request times, read from the histogram it exports at `/metrics`: how
/// many requests, their total time, and how many took at most 5 ms (a bucket boundary of the histogram).
struct ServerRequestTimes: Equatable {
    var count: Double = 0
    var seconds: Double = 0
    var atMostFiveMilliseconds: Double = 0

    /// The requests between `earlier` and this snapshot.
    func since(_ earlier: ServerRequestTimes) -> ServerRequestTimes {
        ServerRequestTimes(
            count: count - earlier.count, seconds: seconds - earlier.seconds,
            atMostFiveMilliseconds: atMostFiveMilliseconds - earlier.atMostFiveMilliseconds)
    }

    /// Mean time at the server, in milliseconds.
    var meanMilliseconds: Double { count > 0 ? seconds / count * 1000 : 0 }
    /// The share of requests answered in at most 5 ms; over one half means a median under 5 ms.
    var shareAtMostFiveMilliseconds: Double { count > 0 ? atMostFiveMilliseconds / count : 0 }

    /// The successful `method path` requests in Prometheus's text format.
    init(prometheus text: String, path: String, method: String = "GET") {
        let labels = #"method="\#(method)",path="\#(path)",status="200""#
        for line in text.split(separator: "\n") where line.contains(labels) {
            guard let value = line.split(separator: " ").last.flatMap({ Double($0) }) else { continue }
            if line.hasPrefix("http_request_duration_seconds_count{") {
                count = value
            } else if line.hasPrefix("http_request_duration_seconds_sum{") {
                seconds = value
            } else if line.hasPrefix("http_request_duration_seconds_bucket{"), line.contains(#"le="0.005""#) {
                atMostFiveMilliseconds = value
            }
        }
    }

    init(count: Double = 0, seconds: Double = 0, atMostFiveMilliseconds: Double = 0) {
        self.count = count
        self.seconds = seconds
        self.atMostFiveMilliseconds = atMostFiveMilliseconds
    }

    /// A snapshot from the running server, or `nil` if its metrics cannot be read.
    static func read(from server: URL, path: String, method: String = "GET", with client: HTTPClient) async
        -> ServerRequestTimes?
    {
        await metricsText(from: server, with: client).map {
            ServerRequestTimes(prometheus: $0, path: path, method: method)
        }
    }

    /// The server's `/metrics` text, or `nil` if it cannot be read.
    static func metricsText(from server: URL, with client: HTTPClient) async -> String? {
        let request = HTTPClientRequest(url: server.appendingPathComponent("metrics").absoluteString)
        guard let response = try? await client.execute(request, timeout: .seconds(10)), response.status == .ok,
            let body = try? await response.body.collect(upTo: 8 << 20)
        else {
            return nil
        }
        return String(buffer: body)
    }

}
