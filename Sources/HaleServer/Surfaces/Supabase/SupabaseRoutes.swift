import Vapor

/// Seed 004's Supabase calls, as supabase-js and supabase-py send them, at `/rest/v1`: reads of the account's
/// `health_sync_logs` and `health_connections` with PostgREST's query language. Every request names a publishable
/// key (`apikey`) and the person's Hale access token; every row read is the signed-in account's, as the app's
/// row-level security would have it. See docs/api/supabase.md.
struct SupabaseRoutes: RouteCollection {
    static let path = "/rest/v1"
    let publishableKeys: [String]

    func boot(routes: any RoutesBuilder) throws {
        let rest = routes.grouped("rest", "v1").grouped(PublishableKeyMiddleware(keys: publishableKeys))
            .grouped(BearerAuthMiddleware())
        rest.get(":table", use: read)
    }

    /// `GET /rest/v1/{table}?select=…&{column}={op}.{value}&order=…&limit=…&offset=…`, with `Range` and
    /// `Prefer: count=exact`. The answer is a JSON array; `Content-Range` says which rows, and of how many when
    /// counted.
    func read(_ request: Request) async throws -> Response {
        do {
            let name = request.parameters.get("table") ?? ""
            guard let table = PostgRESTTable.readable[name] else { throw PostgRESTError.unknownTable(name) }
            var query = try PostgRESTQuery.parse(Self.queryItems(request))
            try Self.applyRange(request.headers, to: &query)
            let counting = request.headers[.init("Prefer")].contains { $0.contains("count=exact") }
            let (rows, total) = try await request.hale.supabaseTables.read(
                table, query, account: try request.account.accountId, counting: counting)
            return Self.response(rows, total: total, offset: query.offset ?? 0)
        } catch let error as PostgRESTError {
            return error.response(for: request)
        }
    }

    /// The query string's parameters in order, percent-decoded, without `apikey`.
    static func queryItems(_ request: Request) throws(PostgRESTError) -> [(name: String, value: String)] {
        guard let query = request.url.query, !query.isEmpty else { return [] }
        var items: [(name: String, value: String)] = []
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = parts[0].removingPercentEncoding,
                let value = (parts.count == 2 ? parts[1] : "").removingPercentEncoding
            else { throw .parse("the query string is not percent-encoded UTF-8") }
            if name != "apikey" { items.append((name, value)) }
        }
        return items
    }

    /// `Range: 0-9` (what older clients send instead of `offset` and `limit`).
    static func applyRange(_ headers: HTTPHeaders, to query: inout PostgRESTQuery) throws(PostgRESTError) {
        guard let range = headers.first(name: "Range") else { return }
        let bounds = range.split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, bounds[0].utf8.count <= 9, let first = Int(bounds[0]), first >= 0 else {
            throw PostgRESTError.invalidRange
        }
        query.offset = query.offset ?? first
        guard !bounds[1].isEmpty else { return }
        guard bounds[1].utf8.count <= 9, let last = Int(bounds[1]), last >= first else {
            throw PostgRESTError.invalidRange
        }
        query.limit = min(query.limit ?? Int.max, last - first + 1)
    }

    static func response(_ rows: [SQLPostgRESTReader.Row], total: Int?, offset: Int) -> Response {
        let body =
            "["
            + rows.map { row in
                "{" + row.map { "\"\($0.name)\":\($0.value.json)" }.joined(separator: ",") + "}"
            }.joined(separator: ",") + "]"
        let response = Response(status: .ok, body: .init(string: body))
        response.headers.contentType = .json
        let span = rows.isEmpty ? "*" : "\(offset)-\(offset + rows.count - 1)"
        response.headers.replaceOrAdd(name: "Content-Range", value: "\(span)/\(total.map(String.init) ?? "*")")
        return response
    }
}
