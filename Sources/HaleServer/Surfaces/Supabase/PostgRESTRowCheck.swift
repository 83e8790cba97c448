import Foundation
import StrictJSON

/// The checks every written row gets before its own: its columns are the table's (`PGRST204`), and a `user_id`, if
/// it names one, is the signed-in account's (`42501`, as row-level security refuses another).
enum PostgRESTRowCheck {
    static func check(
        _ row: [String: JSONValue], of table: String, writable: Set<String>, account: AccountID
    ) throws {
        if let unknown = row.keys.sorted().first(where: { !writable.contains($0) }) {
            throw PostgRESTError(
                code: "PGRST204", status: 400,
                message: "Could not find the '\(unknown.prefix(64))' column of '\(table)' in the schema cache")
        }
        if let owner = row["user_id"], owner != .null {
            guard case .string(let text) = owner, UUID(uuidString: text) == account.rawValue else {
                throw PostgRESTError.rowLevelSecurity(table)
            }
        }
    }
}
