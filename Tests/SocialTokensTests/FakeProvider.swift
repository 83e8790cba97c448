import Foundation
import SocialTokens

/// A fake of Google's, Apple's and Facebook's endpoints behind ``SocialHTTPClient``: it answers GETs and form POSTs
/// from a table keyed by URL without its query, records every URL asked for and every form posted, and can be slow
/// or unreachable.
actor FakeProvider: SocialHTTPClient {
    /// A transport failure.
    struct Unreachable: Error {}

    private var answers: [String: SocialHTTPResponse] = [:]
    private var unreachable: Set<String> = []
    private var delay: Duration?
    /// Every URL requested, in order, query included.
    private(set) var requests: [String] = []
    /// Every form POSTed, in order.
    private(set) var posts: [(url: String, fields: [(String, String)])] = []

    /// Answers GET and POST `url` with `response` from now on.
    func answer(_ url: String, with response: SocialHTTPResponse) {
        answers[url] = response
        unreachable.remove(url)
    }

    /// Answers GET and POST `url` with JSON `object` and status `status`.
    nonisolated func answer(_ url: String, json object: Any, status: Int = 200) async {
        let body = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        await answer(url, with: SocialHTTPResponse(status: status, headers: [], body: Array(body)))
    }

    /// Fails every request for `url` as a transport error.
    func makeUnreachable(_ url: String) {
        unreachable.insert(url)
    }

    /// Makes every answer wait `delay` first.
    func setDelay(_ delay: Duration?) {
        self.delay = delay
    }

    /// How many requests went to `url`, whatever their query.
    func requestCount(_ url: String) -> Int {
        requests.count(where: { $0 == url || $0.hasPrefix(url + "?") })
    }

    func get(_ url: String) async throws -> SocialHTTPResponse {
        requests.append(url)
        if let delay { try await Task.sleep(for: delay) }
        let path = String(url.prefix { $0 != "?" })
        guard !unreachable.contains(path) else { throw Unreachable() }
        return answers[path] ?? SocialHTTPResponse(status: 404, headers: [], body: [])
    }

    func postForm(_ url: String, fields: [(String, String)]) async throws -> SocialHTTPResponse {
        requests.append(url)
        posts.append((url, fields))
        guard !unreachable.contains(url) else { throw Unreachable() }
        return answers[url] ?? SocialHTTPResponse(status: 404, headers: [], body: [])
    }
}
