import Foundation
import Testing

@testable import HaleServer

/// One budget's limiter: a count-min sketch per fixed window, at a time the test sets.
@Suite("Rate limits: the limiter")
struct RateLimiterTests {
    private let start = Date(timeIntervalSince1970: 1_790_000_000)

    private func limiter(_ text: String, width: Int = 1 << 16, depth: Int = 4) throws -> RateLimiter {
        RateLimiter(try #require(RateLimit(text)), width: width, depth: depth)
    }

    @Test("one client gets exactly its budget")
    func exactForOneKey() throws {
        let limiter = try limiter("5/1m")
        let waits = (0..<7).map { _ in limiter.admit("203.0.113.7", at: start) }
        #expect(waits == [nil, nil, nil, nil, nil, 60, 60])
    }

    @Test("clients are counted apart")
    func keysApart() throws {
        let limiter = try limiter("1/1m")
        #expect(limiter.admit("203.0.113.7", at: start) == nil)
        #expect(limiter.admit("203.0.113.8", at: start) == nil)
        #expect(limiter.admit("203.0.113.7", at: start) == 60)
    }

    @Test("a flood of other clients neither resets nor uses up a counted client's budget")
    func floodLeavesACountedKeyAlone() throws {
        let limiter = try limiter("10/1m")
        for _ in 0..<4 { #expect(limiter.admit(-1, at: start) == nil) }
        for client in 0..<200_000 { _ = limiter.admit(client, at: start) }
        let waits = (0..<7).map { _ in limiter.admit(-1, at: start) }
        #expect(waits == [nil, nil, nil, nil, nil, nil, 60])
    }

    @Test("memory is fixed, however many clients")
    func memoryIsFixed() throws {
        let limiter = try limiter("10/1m")
        let before = limiter.memoryBytes
        for client in 0..<100_000 { _ = limiter.admit(client, at: start) }
        #expect(before == 1 << 20)
        #expect(limiter.memoryBytes == before)
        var sketch = CountMinSketch(width: 1 << 10, depth: 4)
        for client in 0..<100_000 { _ = sketch.count(client, below: 3) }
        #expect(sketch.memoryBytes == 16_384)
    }

    @Test("the next window starts with the whole budget")
    func windowsRoll() throws {
        let limiter = try limiter("3/1m")
        let first = (0..<4).map { _ in limiter.admit("c", at: start) }
        let second = (0..<4).map { _ in limiter.admit("c", at: start.addingTimeInterval(60)) }
        let skipped = (0..<4).map { _ in limiter.admit("c", at: start.addingTimeInterval(185)) }
        #expect(first == [nil, nil, nil, 60])
        #expect(second == [nil, nil, nil, 60])
        #expect(skipped == [nil, nil, nil, 55])
    }

    @Test("Retry-After is the whole seconds to the window's end, at least one")
    func retryAfterAtTheBoundary() throws {
        let limiter = try limiter("1/1m")
        #expect(limiter.admit("c", at: start) == nil)
        let waits = [0, 0.5, 1, 58.2, 59, 59.999].map { limiter.admit("c", at: start.addingTimeInterval($0)) }
        #expect(waits == [60, 60, 59, 2, 1, 1])
        #expect(limiter.admit("c", at: start.addingTimeInterval(60)) == nil)
        #expect(limiter.admit("c", at: start.addingTimeInterval(60)) == 60)
    }

    @Test("windows follow one another from the budget's first request")
    func windowsStartAtTheFirstRequest() throws {
        let limiter = try limiter("1/1m")
        let first = start.addingTimeInterval(30)
        #expect(limiter.admit("c", at: first) == nil)
        #expect(limiter.admit("c", at: first.addingTimeInterval(59)) == 1)
        #expect(limiter.admit("c", at: first.addingTimeInterval(60)) == nil)
    }

    @Test("a flood past the sketch's size fails closed until the window ends")
    func floodPastCapacityFailsClosed() throws {
        let limiter = try limiter("2/1m", width: 16, depth: 2)
        for client in 0..<10_000 { _ = limiter.admit(client, at: start) }
        #expect(limiter.admit("newcomer", at: start.addingTimeInterval(10)) == 50)
        #expect(limiter.admit("newcomer", at: start.addingTimeInterval(60)) == nil)
    }

    @Test(
        "a budget is COUNT/DURATION, with a count of 1 to 2³² − 1 and a window of a second or more",
        arguments: ["0/1m", "4294967296/1m", "30", "x/1m", "30/0s", "30/500ms", "-1/1m", "30/"])
    func malformedBudget(text: String) {
        #expect(RateLimit(text) == nil)
    }

    @Test("equal budgets written differently are equal")
    func budgetSpelling() {
        #expect(RateLimit("30/1m") == RateLimit("30/60s"))
        #expect(RateLimit(" 4294967295 / 1h ")?.limit == 4_294_967_295)
    }
}
