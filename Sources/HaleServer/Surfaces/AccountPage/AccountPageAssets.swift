import Foundation
import Vapor

/// The page's static files, read once from the package's resources (`Resources/account`), served with a strict
/// Content-Security-Policy: scripts, styles, images and fetches from this origin only, nothing inline, no framing.
enum AccountPageAssets {
    static let contentSecurityPolicy = [
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self'", "connect-src 'self'",
        "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'",
    ].joined(separator: "; ")

    private static let files: [String: Data] = {
        guard let directory = Bundle.module.url(forResource: "account", withExtension: nil),
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else {
            return [:]
        }
        return Dictionary(
            uniqueKeysWithValues: names.compactMap { name in
                (try? Data(contentsOf: directory.appendingPathComponent(name))).map { (name, $0) }
            })
    }()

    private static let types: [String: HTTPMediaType] = [
        "html": .html, "js": HTTPMediaType(type: "text", subType: "javascript", parameters: ["charset": "utf-8"]),
        "css": HTTPMediaType(type: "text", subType: "css", parameters: ["charset": "utf-8"]), "svg": .svg,
    ]

    @Sendable static func index(_ request: Request) async throws -> Response {
        try serve("index.html")
    }

    @Sendable static func asset(_ request: Request) async throws -> Response {
        guard let name = request.parameters.get("file"), name != "index.html" else { throw notFound }
        return try serve(name)
    }

    private static func serve(_ name: String) throws -> Response {
        guard let data = files[name], let type = name.split(separator: ".").last.flatMap({ types[String($0)] })
        else {
            throw notFound
        }
        var headers = HTTPHeaders()
        headers.contentType = type
        headers.replaceOrAdd(name: "Content-Security-Policy", value: contentSecurityPolicy)
        headers.replaceOrAdd(name: "X-Frame-Options", value: "DENY")
        headers.replaceOrAdd(name: "Referrer-Policy", value: "no-referrer")
        headers.replaceOrAdd(name: "Cross-Origin-Opener-Policy", value: "same-origin")
        headers.replaceOrAdd(name: .cacheControl, value: "no-cache")
        return Response(status: .ok, headers: headers, body: .init(data: data))
    }

    static let notFound = HaleError(.notFound, .notFound, message: "No such file on the account page.")
}
