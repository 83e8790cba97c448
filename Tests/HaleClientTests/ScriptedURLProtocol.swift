import Foundation
import Synchronization

@testable import HaleClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Answers a client's requests from a script, one scripted answer per request, and records what was asked. Each
/// script has its own host, so tests running at once never share one.
final class ScriptedURLProtocol: URLProtocol {
    /// One scripted answer: a status, headers and a body, or a transport failure.
    enum Answer: Sendable {
        case status(Int, headers: [String: String] = [:], body: String = "{}")
        case transportFailure
    }

    /// A script and what it was asked.
    final class Script: Sendable {
        let host = "script-\(UUID().uuidString.lowercased()).invalid"
        private let state: Mutex<(answers: [Answer], asked: [String])>

        init(_ answers: [Answer]) {
            state = Mutex((answers, []))
        }

        /// The requests made, as `METHOD path`.
        var asked: [String] { state.withLock { $0.asked } }

        fileprivate func next(for request: URLRequest) -> Answer {
            state.withLock { state in
                state.asked.append("\(request.httpMethod ?? "GET") \(request.url?.path ?? "")")
                return state.answers.isEmpty ? .status(500) : state.answers.removeFirst()
            }
        }

        /// A client of this script's host that retries at once.
        func client(retry: RetryPolicy = RetryPolicy(maxAttempts: 3, firstDelay: .milliseconds(1))) -> HaleClient {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.protocolClasses = [ScriptedURLProtocol.self]
            return HaleClient(
                baseURL: URL(string: "http://\(host)")!, session: URLSession(configuration: configuration),
                retry: retry)
        }
    }

    private static let scripts = Mutex<[String: Script]>([:])

    /// A script for the test to drive a client with.
    static func script(_ answers: [Answer]) -> Script {
        let script = Script(answers)
        scripts.withLock { $0[script.host] = script }
        return script
    }

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func stopLoading() {}

    override func startLoading() {
        let script = Self.scripts.withLock { $0[request.url?.host ?? ""] }
        guard let script, let url = request.url else {
            client?.urlProtocol(self, didFailWithError: URLError(.cannotFindHost))
            return
        }
        switch script.next(for: request) {
        case .transportFailure:
            client?.urlProtocol(self, didFailWithError: URLError(.networkConnectionLost))
        case .status(let status, let headers, let body):
            let response = HTTPURLResponse(
                url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client?.urlProtocol(self, didLoad: Data(body.utf8))
            client?.urlProtocolDidFinishLoading(self)
        }
    }
}
