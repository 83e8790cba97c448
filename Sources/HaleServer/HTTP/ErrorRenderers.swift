import Vapor

/// Which renderer serves which paths. A surface registers the path prefix it owns; the longest match wins, and
/// matching is by whole path segments, so `/health` owns `/health/today` but not `/healthz`.
public struct ErrorRenderers: Sendable {
    private var byPrefix: [(segments: [String], renderer: any ErrorRenderer)] = []
    private let fallback: any ErrorRenderer

    /// A registry whose unmatched paths use `fallback`.
    public init(fallback: any ErrorRenderer = CoreErrorRenderer()) {
        self.fallback = fallback
    }

    /// Makes `renderer` render errors for every path under `prefix`.
    public mutating func register(_ renderer: any ErrorRenderer, for prefix: String) {
        byPrefix.append((Self.segments(of: prefix), renderer))
        byPrefix.sort { $0.segments.count > $1.segments.count }
    }

    /// The renderer for a request path.
    public func renderer(for path: String) -> any ErrorRenderer {
        let segments = Self.segments(of: path)
        return byPrefix.first { segments.starts(with: $0.segments) }?.renderer ?? fallback
    }

    private static func segments(of path: String) -> [String] {
        path.split(separator: "/").map(String.init)
    }
}
