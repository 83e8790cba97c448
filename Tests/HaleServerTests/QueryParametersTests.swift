import Testing

@testable import HaleServer

@Suite("HTTP: query parameters")
struct QueryParametersTests {
    @Test("pairs are percent-decoded in order, repeats kept, + read as a space")
    func pairs() {
        let query = QueryParameters("startDate=2025-07-01&period=w%65ek&note=a+b%2Bc&flag&period=day&=x")
        #expect(query.names == ["startDate", "period", "note", "flag", "period", ""])
        #expect(query.values("period") == ["week", "day"])
        #expect(query.values("note") == ["a b+c"])
        #expect(query.values("flag") == [""])
        #expect(query.values("endDate").isEmpty)
    }

    @Test("no query and an empty query have no pairs; bad escapes are kept as sent")
    func empty() {
        #expect(QueryParameters(nil).pairs.isEmpty)
        #expect(QueryParameters("").pairs.isEmpty)
        #expect(QueryParameters("a=%zz").values("a") == ["%zz"])
    }
}
