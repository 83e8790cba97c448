import Testing

@testable import HaleServer

/// PostgREST's query language as supabase-js and supabase-py write it, and one test per reason to refuse.
@Suite("PostgREST queries")
struct PostgRESTQueryTests {
    static func parse(_ pairs: [(String, String)]) throws(PostgRESTError) -> PostgRESTQuery {
        try PostgRESTQuery.parse(pairs.map { (name: $0.0, value: $0.1) })
    }

    @Test("seed 004's failed-logs query, as supabase-py sends it")
    func seedQuery() throws {
        let query = try Self.parse([
            ("select", "*"), ("status", "eq.failed"), ("order", "started_at.desc"), ("limit", "5"),
        ])
        #expect(query.columns == nil)
        #expect(query.filters == [.init(column: "status", negated: false, op: .eq, values: ["failed"])])
        #expect(query.order == [.init(column: "started_at", descending: true, nullsFirst: true)])
        #expect(query.limit == 5 && query.offset == nil)
    }

    @Test("columns, in with quoted values, is, not, nulls ordering, a range, and parameters that are not filters")
    func everyForm() throws {
        let query = try Self.parse([
            ("select", "id, status"), ("status", #"in.(failed,"a,b",partial)"#), ("completed_at", "is.null"),
            ("provider", "not.eq.healthkit"), ("order", "started_at.asc.nullsfirst,id"), ("offset", "10"),
            ("limit", "10"), ("columns", #""a""#), ("on_conflict", "id"),
        ])
        #expect(query.columns == ["id", "status"])
        #expect(
            query.filters == [
                .init(column: "status", negated: false, op: .in, values: ["failed", "a,b", "partial"]),
                .init(column: "completed_at", negated: false, op: .is, values: ["null"]),
                .init(column: "provider", negated: true, op: .eq, values: ["healthkit"]),
            ])
        #expect(
            query.order == [
                .init(column: "started_at", descending: false, nullsFirst: true),
                .init(column: "id", descending: false, nullsFirst: false),
            ])
        #expect(query.offset == 10 && query.limit == 10)
    }

    @Test(
        "what Hale does not serve is PGRST100, never a guess",
        arguments: [
            ("status", "like.fail*"), ("status", "failed"), ("status", "cs.{a}"), ("or", "(a.eq.1,b.eq.2)"),
            ("select", "id,challenges(*)"), ("select", "alias:id"), ("select", "id::text"), ("order", "id.sideways"),
            ("order", "id.desc.nullsfirst.extra"), ("limit", "-1"), ("limit", "ten"), ("offset", "1e3"),
            ("completed_at", "is.maybe"), ("status", "in.failed"), ("status", #"in.("open)"#),
            ("bad-name", "eq.1"),
        ])
    func refused(name: String, value: String) {
        #expect(throws: PostgRESTError.self) { try Self.parse([(name, value)]) }
        do {
            _ = try Self.parse([(name, value)])
        } catch {
            #expect(error.code == "PGRST100" && error.status == 400)
        }
    }

    @Test("bounds: a value over 4 KiB, over 100 parameters, over 100 in values")
    func bounds() {
        #expect(throws: PostgRESTError.self) {
            try Self.parse([("status", "eq." + String(repeating: "a", count: 4097))])
        }
        #expect(throws: PostgRESTError.self) { try Self.parse((0...100).map { ("c\($0)", "eq.1") }) }
        let many = "in.(" + (0...100).map(String.init).joined(separator: ",") + ")"
        #expect(throws: PostgRESTError.self) { try Self.parse([("status", many)]) }
    }
}
