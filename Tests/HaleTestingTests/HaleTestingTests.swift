import Foundation
import HaleServer
import HaleTesting
import Testing

@Suite("Test support")
struct HaleTestingTests {
    @Test func theClockMovesOnlyWhenTold() {
        let time = TestClock()
        let start = time.clock.now()
        #expect(time.clock.now() == start)
        time.advance(.seconds(90))
        #expect(time.clock.now() == start.addingTimeInterval(90))
    }

    @Test(arguments: TestDatabase.available)
    func eachProvisionedDatabaseIsNewAndMigrates(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (account, _) = try await makeAccount(app, email: "a@example.com")
            let found = try #require(try await app.hale.accounts.find(account.id))
            #expect(found.id == account.id && found.email == account.email && found.role == account.role)
            #expect(abs(found.createdAt.timeIntervalSince(account.createdAt)) < 0.001)
        }
        try await withHale(on: database) { app in
            let found = try await app.hale.accounts.find(email: try AccountEmail("a@example.com"))
            #expect(found == nil)
        }
    }

    @Test func freePortsAreUsablePorts() throws {
        let port = try freeLoopbackPort()
        #expect((1024...65_535).contains(port))
    }
}
