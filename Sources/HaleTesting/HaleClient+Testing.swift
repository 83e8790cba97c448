import Foundation
import HaleClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSession {
    /// The session tests reach a server under test with: its requests may wait five minutes, long enough for a
    /// debug build on two cores shared with the rest of the suite (CI saw requests take over a minute). A request's
    /// own `timeoutInterval` does not lift `URLSession.shared`'s 60 s on Linux; this session's configuration does.
    /// A server that hangs still fails.
    public static let testing: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 300
        configuration.timeoutIntervalForResource = 600
        return URLSession(configuration: configuration)
    }()
}

extension HaleClient {
    /// A client of a server under test: an app's, on `URLSession.testing`.
    public convenience init(testing baseURL: URL, installationID: String = UUID().uuidString) {
        self.init(baseURL: baseURL, session: .testing, timeout: 300, installationID: installationID)
    }
}
