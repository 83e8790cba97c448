import StrictJSON
import Vapor

/// Seed 004's Supabase calls, as supabase-js and supabase-py send them, at `/rest/v1`: reads of the account's
/// `health_sync_logs` and `health_connections` with PostgREST's query language. Every request names a publishable
/// key (`apikey`) and the person's Hale access token; every row read is the signed-in account's, as the app's
/// row-level security would have it. See docs/api/supabase.md.
struct SupabaseRoutes: RouteCollection {
    static let path = "/rest/v1"
    let publishableKeys: [String]
    let supabaseTables: any PostgRESTRowReader
    let health: HealthData
    let healthSync: HealthSync
    let healthConnections: HealthConnections
    let fitnessChallenges: FitnessChallenges
    let bearerTokens: BearerTokenVerifier
    let clock: HaleClock

    func boot(routes: any RoutesBuilder) throws {
        let rest = SignedInRoutes(
            routes.grouped("rest", "v1").grouped(PublishableKeyMiddleware(keys: publishableKeys)),
            authenticatedBy: BearerAuthMiddleware(verifier: bearerTokens))
        rest.get(":table", use: read)
        // A sync's activities arrive in one upsert: as many as a sample sync takes.
        rest.on(.POST, ":table", limit: .sync, use: insert)
        rest.on(.PATCH, ":table", limit: .small, use: update)
        rest.on(.POST, "rpc", ":function", limit: .small, use: call)
        rest.get("rpc", ":function", use: call)
    }

    /// `POST /rest/v1/health_connections`: seed 004's `connect()`, an insert or (with
    /// `Prefer: resolution=merge-duplicates`) an upsert of one row or an array of them.
    func insert(_ request: Request, _ account: AuthenticatedAccount) async throws -> Response {
        do {
            let table = try Self.writable(request)
            let rows = try Self.rows(
                of: request, maximum: table.name == PostgRESTTable.activityLogs.name ? HealthSync.maximumBatch : 10)
            let prefer = PostgRESTPreferences(request.headers)
            if table.name == PostgRESTTable.activityLogs.name {
                let proof = try await attest(request, account)
                let written = try await activities(request, account: account.accountId, proof: proof)
                    .insert(rows)
                return try await answer(
                    activities: written, account: account.accountId, representation: prefer.representation)
            }
            let written = try await SupabaseConnectionWrites(connections: healthConnections, account: account.accountId)
                .insert(rows, resolution: prefer.resolution)
            return try await answer(
                written, in: table, account: account.accountId, status: .created,
                representation: prefer.representation)
        } catch let error as PostgRESTError {
            return error.response(for: request)
        }
    }

    /// `PATCH /rest/v1/health_connections?provider=eq.healthkit`: seed 004's `disconnect()` (`is_active` false),
    /// or new permissions, on the account's rows the filters select.
    func update(_ request: Request, _ account: AuthenticatedAccount) async throws -> Response {
        do {
            let table = try Self.writable(request)
            guard case .object(let changes) = try Self.body(of: request) else {
                throw PostgRESTError(code: "PGRST102", status: 400, message: "A PATCH body is one JSON object")
            }
            let query = try PostgRESTQuery.parse(Self.queryItems(request))
            let selected = try await supabaseTables.read(
                table, PostgRESTQuery(columns: ["provider"], filters: query.filters), account: account.accountId,
                counting: false)
            let providers = selected.rows.compactMap { row -> HealthProvider? in
                guard case .text(let name) = row.first?.value else { return nil }
                return HealthProvider(rawValue: name)
            }
            try await SupabaseConnectionWrites(connections: healthConnections, account: account.accountId)
                .update(providers, with: changes)
            return try await answer(
                providers, in: table, account: account.accountId, status: .ok,
                representation: PostgRESTPreferences(request.headers).representation)
        } catch let error as PostgRESTError {
            return error.response(for: request)
        }
    }

    /// `POST /rest/v1/rpc/{function}` (or `GET`): seed 004's `get_challenges_for_health_sync`.
    func call(_ request: Request, _ account: AuthenticatedAccount) async throws -> Response {
        do {
            let name = request.parameters.get("function") ?? ""
            var arguments: [String: JSONValue] = [:]
            if request.method == .POST, case .object(let members) = try Self.body(of: request) {
                arguments = members
            }
            switch name {
            case "get_challenges_for_health_sync" where arguments.isEmpty:
                let zone = try await health.timeZone(of: account.accountId, sent: nil)
                let rows = try await SupabaseChallenges(challenges: fitnessChallenges, clock: clock)
                    .forHealthSync(of: account.accountId, in: zone)
                return Self.response(rows, total: nil, offset: 0)
            case "log_health_activity" where request.method == .POST:
                let proof = try await attest(request, account)
                return try await logHealthActivity(
                    arguments, account: account.accountId, proof: proof, request: request)
            default:
                let signature = arguments.keys.sorted().joined(separator: ", ")
                throw PostgRESTError(
                    code: "PGRST202", status: 404,
                    message: "Could not find the function public.\(name.prefix(64))(\(signature.prefix(256))) in the "
                        + "schema cache",
                    hint: "Hale serves get_challenges_for_health_sync() and log_health_activity(p_activity_type, "
                        + "p_value, p_recorded_at, p_source_external_id, …); see docs/api/supabase.md")
            }
        } catch let error as PostgRESTError {
            return error.response(for: request)
        }
    }

    /// `log_health_activity`: one activity, its arguments the row's columns with `p_` before each, stored as
    /// `POST /rest/v1/activity_logs` stores it (challenge progress moves in the same transaction). The answer is the
    /// activity's row, also when it was logged before and this call changed nothing.
    private func logHealthActivity(
        _ arguments: [String: JSONValue], account: AccountID, proof: HealthWriteProof?, request: Request
    ) async throws -> Response {
        var row: [String: JSONValue] = [:]
        for (name, value) in arguments {
            let column = name.hasPrefix("p_") ? String(name.dropFirst(2)) : ""
            guard SupabaseActivityWrites.writable.contains(column) else {
                throw PostgRESTError(
                    code: "PGRST202", status: 404,
                    message: "Could not find the function public.log_health_activity with the argument "
                        + "\(name.prefix(64)) in the schema cache",
                    hint: "log_health_activity takes p_activity_type, p_value, p_unit, p_recorded_at, p_ended_at, "
                        + "p_source, p_source_external_id and p_challenge_id")
            }
            row[column] = value
        }
        let written = try await activities(request, account: account, proof: proof).insert([row])
        guard let (provider, ids) = written.first, let id = ids.first else {
            return Self.response([], total: nil, offset: 0)
        }
        let query = PostgRESTQuery(filters: [
            .init(column: "source", negated: false, op: .eq, values: [provider.rawValue]),
            .init(column: "source_external_id", negated: false, op: .eq, values: [id]),
        ])
        let rows = try await supabaseTables.read(
            PostgRESTTable.activityLogs, query, account: account, counting: false
        ).rows
        let body = rows.first.map(Self.object) ?? "null"
        let response = Response(status: .ok, body: .init(string: body))
        response.headers.contentType = .json
        return response
    }

    /// The table a write names: `health_connections` and `activity_logs` take writes.
    private static func writable(_ request: Request) throws -> PostgRESTTable {
        let name = request.parameters.get("table") ?? ""
        if name == PostgRESTTable.activityLogs.name { return PostgRESTTable.activityLogs }
        guard name == PostgRESTTable.healthConnections.name else {
            guard PostgRESTTable.readable[name] != nil else { throw PostgRESTError.unknownTable(name) }
            throw PostgRESTError(
                code: "42501", status: 403, message: "permission denied for table \(name)",
                hint: "health_sync_logs is written by Hale's syncs")
        }
        return PostgRESTTable.healthConnections
    }

    /// What proved a write of health data, when it was attested: its `X-Attestation-*` headers, made over its body
    /// as `POST /api/v1/health/sync`'s are, checked whenever sent. With `health.requireAttestation: all`, a write
    /// without them is 401 `ATTESTATION_REQUIRED`.
    func attest(_ request: Request, _ account: AuthenticatedAccount) async throws -> HealthWriteProof? {
        try await health.attest(
            try request.attestationHeaders(), bodyDigest: Array(request.bodyDigest), account: account.accountId,
            device: account.deviceId, logger: request.logger)
    }

    /// The account's activity writer, days taken in the account's zone.
    func activities(_ request: Request, account: AccountID, proof: HealthWriteProof?) async throws
        -> SupabaseActivityWrites
    {
        SupabaseActivityWrites(
            sync: healthSync, connections: healthConnections, account: account, proof: proof,
            zone: try await health.timeZone(of: account, sent: try request.timeZoneHeader()))
    }

    /// The activities written, as `activity_logs` reads them, when `return=representation` asks.
    private func answer(
        activities written: SupabaseActivityWrites.Written, account: AccountID, representation: Bool
    ) async throws -> Response {
        guard representation else { return Response(status: .created) }
        var rows: [PostgRESTRow] = []
        for (provider, ids) in written where !ids.isEmpty {
            let query = PostgRESTQuery(filters: [
                .init(column: "source", negated: false, op: .eq, values: [provider.rawValue]),
                .init(column: "source_external_id", negated: false, op: .in, values: ids),
            ])
            rows += try await supabaseTables.read(
                PostgRESTTable.activityLogs, query, account: account, counting: false
            ).rows
        }
        let response = Self.response(rows, total: nil, offset: 0)
        response.status = .created
        return response
    }

    /// The body as JSON, bounded as every body is.
    private static func body(of request: Request) throws -> JSONValue {
        guard let buffer = request.body.data, buffer.readableBytes > 0 else {
            return .object([:])
        }
        do {
            return try JSONParser.parse(buffer.readableBytesView)
        } catch {
            throw PostgRESTError(code: "PGRST102", status: 400, message: "Empty or invalid json")
        }
    }

    /// One row or an array of 1 to `maximum` rows.
    private static func rows(of request: Request, maximum: Int) throws -> [[String: JSONValue]] {
        switch try body(of: request) {
        case .object(let row): return [row]
        case .array(let items) where (1...maximum).contains(items.count):
            return try items.map { item in
                guard case .object(let row) = item else {
                    throw PostgRESTError(code: "PGRST102", status: 400, message: "Every row must be a JSON object")
                }
                return row
            }
        default:
            throw PostgRESTError(
                code: "PGRST102", status: 400, message: "The body must be a row or an array of 1 to \(maximum) rows")
        }
    }

    /// The written rows as the table reads them, when `return=representation` asks; else an empty body.
    private func answer(
        _ providers: [HealthProvider], in table: PostgRESTTable, account: AccountID, status: HTTPResponseStatus,
        representation: Bool
    ) async throws -> Response {
        guard representation else { return Response(status: status == .created ? .created : .noContent) }
        let query = PostgRESTQuery(
            filters: [.init(column: "provider", negated: false, op: .in, values: providers.map(\.rawValue))])
        let (rows, _) = try await supabaseTables.read(table, query, account: account, counting: false)
        let response = Self.response(rows, total: nil, offset: 0)
        response.status = status
        return response
    }

    /// `GET /rest/v1/{table}?select=…&{column}={op}.{value}&order=…&limit=…&offset=…`, with `Range` and
    /// `Prefer: count=exact`. The answer is a JSON array; `Content-Range` says which rows, and of how many when
    /// counted.
    func read(_ request: Request, _ account: AuthenticatedAccount) async throws -> Response {
        do {
            let name = request.parameters.get("table") ?? ""
            guard let table = PostgRESTTable.readable[name] else { throw PostgRESTError.unknownTable(name) }
            var query = try PostgRESTQuery.parse(Self.queryItems(request))
            try Self.applyRange(request.headers, to: &query)
            let counting = request.headers[.init("Prefer")].contains { $0.contains("count=exact") }
            let (rows, total) = try await supabaseTables.read(
                table, query, account: account.accountId, counting: counting)
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

    static func response(_ rows: [PostgRESTRow], total: Int?, offset: Int) -> Response {
        let body =
            "[" + rows.map(Self.object).joined(separator: ",") + "]"
        let response = Response(status: .ok, body: .init(string: body))
        response.headers.contentType = .json
        let span = rows.isEmpty ? "*" : "\(offset)-\(offset + rows.count - 1)"
        response.headers.replaceOrAdd(name: "Content-Range", value: "\(span)/\(total.map(String.init) ?? "*")")
        return response
    }

    /// A row as the JSON object PostgREST writes, its members in the order selected.
    static func object(_ row: PostgRESTRow) -> String {
        "{" + row.map { "\"\($0.name)\":\($0.value.json)" }.joined(separator: ",") + "}"
    }
}
