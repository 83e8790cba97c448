import Foundation
import Testing

@testable import HaleServer

@Suite("work on a thread of its own")
struct ThreadWorkTests {
    @Test func itsValueArrivesWhetherItEndsBeforeOrAfterItIsAwaited() async throws {
        let quick = ThreadWork { 6 * 7 }
        try await Task.sleep(for: .milliseconds(50))
        #expect(await quick.value == 42)

        let gate = DispatchSemaphore(value: 0)
        let slow = ThreadWork {
            gate.wait()
            return "done"
        }
        async let awaited = slow.value
        try await Task.sleep(for: .milliseconds(50))
        gate.signal()
        #expect(await awaited == "done")
    }

    @Test func itRunsBesideTheCaller() async throws {
        // The work waits for the caller to go on: it can only end if the two run at once.
        let started = DispatchSemaphore(value: 0)
        let callerWent = DispatchSemaphore(value: 0)
        let work = ThreadWork {
            started.signal()
            return callerWent.wait(timeout: .now() + 10) == .success
        }
        started.wait()
        callerWent.signal()
        #expect(await work.value)
    }
}
