/// A table of seed 004's Supabase schema as Hale serves it: its columns by the schema's names, each read from a
/// column of Hale's own table, and the column that holds its owner, which scopes every read to the signed-in
/// account as the app's row-level security would.
struct PostgRESTTable: Sendable {
    /// A column's type, which decides how filter values are read and rows are written.
    enum ColumnType: String, Sendable {
        case uuid, text, integer, boolean
        /// A `numeric`: a finite number.
        case number = "numeric"
        case timestamp = "timestamp with time zone"
        /// A `text[]` kept as comma-separated names (`health_connections.permissions_granted`).
        case textList = "text[]"
    }

    /// A column: its name in the schema, the column of Hale's table it is read from (or a constant SQL expression
    /// over its columns), and its type.
    struct Column: Sendable {
        let name: String
        let stored: String
        let type: ColumnType
        /// SQL written here, never from a request, computing the column from the row.
        let computed: String?

        init(_ name: String, _ type: ColumnType, stored: String? = nil, computed: String? = nil) {
            self.name = name
            self.stored = stored ?? name
            self.type = type
            self.computed = computed
        }
    }

    /// The table's name in the schema.
    let name: String
    /// Hale's table it is read from.
    let stored: String
    /// The stored column that names the account a row belongs to.
    let owner: String
    /// Every column, in the schema's order: what `select=*` answers.
    let columns: [Column]

    /// The column named `name`, or `42703`.
    func column(_ name: String) throws(PostgRESTError) -> Column {
        guard let column = columns.first(where: { $0.name == name }) else {
            throw .unknownColumn(name, of: self.name)
        }
        return column
    }

    /// seed 004's `health_sync_logs`, with Hale's extra counters and lookback.
    static let healthSyncLogs = PostgRESTTable(
        name: "health_sync_logs", stored: "health_sync_logs", owner: "account_id",
        columns: [
            Column("id", .uuid), Column("user_id", .uuid, stored: "account_id"), Column("provider", .text),
            Column("sync_type", .text), Column("lookback_days", .integer), Column("started_at", .timestamp),
            Column("completed_at", .timestamp), Column("status", .text), Column("records_processed", .integer),
            Column("records_inserted", .integer), Column("records_updated", .integer),
            Column("records_deduplicated", .integer), Column("records_deleted", .integer),
            Column("records_rejected", .integer), Column("error_message", .text),
        ])

    /// seed 004's `health_connections`.
    static let healthConnections = PostgRESTTable(
        name: "health_connections", stored: "health_connections", owner: "account_id",
        columns: [
            Column("id", .uuid), Column("user_id", .uuid, stored: "account_id"), Column("provider", .text),
            Column("connected_at", .timestamp), Column("last_sync_at", .timestamp),
            Column("permissions_granted", .textList), Column("is_active", .boolean),
            Column("disconnected_at", .timestamp),
        ])

    /// seed 004's `activity_logs`: the account's synced samples, each as the activity the app logged. Values are in
    /// each kind's unit (`unit`), whatever unit they were written in.
    static let activityLogs = PostgRESTTable(
        name: "activity_logs", stored: "health_samples", owner: "account_id",
        columns: [
            Column("id", .uuid), Column("user_id", .uuid, stored: "account_id"),
            Column("challenge_id", .uuid, computed: "NULL"), Column("activity_type", .text, stored: "type"),
            Column("value", .number),
            Column(
                "unit", .text,
                computed: "CASE type WHEN 'steps' THEN 'count' WHEN 'distance' THEN 'm' WHEN 'calories' THEN 'kcal' "
                    + "WHEN 'oxygen_saturation' THEN '%' ELSE 's' END"),
            Column("recorded_at", .timestamp, stored: "start_at"), Column("ended_at", .timestamp, stored: "end_at"),
            Column("source", .text, stored: "provider"), Column("source_external_id", .text, stored: "platform_id"),
            Column("user_entered", .boolean), Column("created_at", .timestamp),
        ])

    /// The tables served for reading, by name.
    static let readable: [String: PostgRESTTable] = [
        healthSyncLogs.name: healthSyncLogs, healthConnections.name: healthConnections,
        activityLogs.name: activityLogs,
    ]
}
