/// An HTTP response, as a ``SocialHTTPClient`` hands it back.
public struct SocialHTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields in the order received; names compare case-insensitively.
    public var headers: [(String, String)]
    /// The body, complete.
    public var body: [UInt8]

    /// A response with the given status, headers and body.
    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The values of every field called `name`, compared case-insensitively.
    func values(of name: String) -> [String] {
        headers.filter { $0.0.lowercased() == name.lowercased() }.map(\.1)
    }
}
