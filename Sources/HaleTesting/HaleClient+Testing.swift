import Foundation
import HaleClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSession {
    /// How long a test's request to a server under test may wait: twenty minutes. Swift Testing starts every test of
    /// the suite at once, so on two cores a request waits its turn behind the rest of the suite: here tests of 2 s
    /// alone end when the whole 4-minute suite does, and CI, on a slower machine, saw requests time out. A
    /// request's own `timeoutInterval` does not lift `URLSession.shared`'s 60 s on Linux; `testing`'s
    /// configuration does. A server that hangs still fails, well inside CI's limit.
    public static let testingTimeout: TimeInterval = 1_200

    /// The session tests reach a server under test with (see `testingTimeout`).
    public static let testing: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = URLSession.testingTimeout
        configuration.timeoutIntervalForResource = URLSession.testingTimeout
        return URLSession(configuration: configuration)
    }()
}

extension HaleClient {
    /// A client of a server under test: an app's, on `URLSession.testing`.
    public convenience init(testing baseURL: URL, installationID: String = UUID().uuidString) {
        self.init(
            baseURL: baseURL, session: .testing, timeout: URLSession.testingTimeout, installationID: installationID)
    }
}
