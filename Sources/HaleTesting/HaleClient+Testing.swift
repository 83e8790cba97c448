import Foundation
import HaleClient

extension HaleClient {
    /// A client of a server under test: an app's, but with a timeout long enough for a debug build on two cores
    /// shared with the rest of the suite (CI saw a request take over 30 s). A server that hangs still fails.
    public convenience init(testing baseURL: URL, installationID: String = UUID().uuidString) {
        self.init(baseURL: baseURL, timeout: 300, installationID: installationID)
    }
}
