import Vapor

/// An error as PostgREST answers it: `{"code", "message", "details", "hint"}` with PostgREST's status, so that
/// supabase-js and supabase-py hand the app the error it already handles.
struct PostgRESTError: Error, Equatable {
    /// PostgREST's code (`PGRST…`) or PostgreSQL's SQLSTATE (`42501`, `42703`, …).
    let code: String
    let status: Int
    let message: String
    var details: String?
    var hint: String?

    /// `PGRST100`: a query string PostgREST cannot parse, or one outside what Hale serves.
    static func parse(_ message: String) -> PostgRESTError {
        PostgRESTError(
            code: "PGRST100", status: 400, message: message,
            hint: "Hale serves select, eq, neq, gt, gte, lt, lte, in, is, not, order, limit and offset; see "
                + "docs/api/supabase.md")
    }

    /// `PGRST205`: a table Hale does not serve.
    static func unknownTable(_ name: String) -> PostgRESTError {
        PostgRESTError(
            code: "PGRST205", status: 404, message: "Could not find the table 'public.\(name)' in the schema cache",
            details: nil, hint: "Hale serves health_connections, health_sync_logs and activity_logs")
    }

    /// `42703`: a column the table does not have.
    static func unknownColumn(_ column: String, of table: String) -> PostgRESTError {
        PostgRESTError(code: "42703", status: 400, message: "column \(table).\(column) does not exist")
    }

    /// `22P02`: a filter value that is not of its column's type.
    static func invalidValue(_ value: String, type: String) -> PostgRESTError {
        PostgRESTError(
            code: "22P02", status: 400, message: "invalid input syntax for type \(type): \"\(value.prefix(64))\"")
    }

    /// `PGRST103`: a `Range` header that is not `first-last` of whole numbers.
    static let invalidRange = PostgRESTError(
        code: "PGRST103", status: 416, message: "Requested range not satisfiable",
        details: "Range must be first-last, such as 0-9")
}

extension PostgRESTError {
    /// The gateway's answer to a request without a publishable key.
    static let noAPIKey = PostgRESTError(
        code: "401", status: 401, message: "No API key found in request",
        hint: "No `apikey` request header or url param was found.")

    /// The gateway's answer to a key that is not one of `supabase.publishableKeys`.
    static let invalidAPIKey = PostgRESTError(
        code: "401", status: 401, message: "Invalid API key",
        hint: "Double check the publishable key: `hale supabase key` makes one for supabase.publishableKeys.")

    /// `{"code","details","hint","message"}` with its status.
    func response(for request: Request) -> Response {
        var text = "{\"code\":" + PostgRESTValue.text(code).json
        text += ",\"details\":" + (details.map { PostgRESTValue.text($0).json } ?? "null")
        text += ",\"hint\":" + (hint.map { PostgRESTValue.text($0).json } ?? "null")
        text += ",\"message\":" + PostgRESTValue.text(message).json + "}"
        let response = Response(status: HTTPResponseStatus(statusCode: status), body: .init(string: text))
        response.headers.contentType = .json
        return response
    }
}
