/// A first-come, first-served gate that lets one task at a time through.
///
/// SQLite has one writer, and its driver waits for the write lock by spinning on a thread of a small shared pool.
/// Two of Hale's write transactions waiting that way can starve the connection that holds the lock of the thread it
/// needs to commit, and nothing moves again. Queuing write transactions here first means they never wait inside
/// SQLite for each other.
actor WriteGate {
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` once every earlier caller has finished.
    func through<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await enter()
        defer { leave() }
        return try await body()
    }

    private func enter() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func leave() {
        if waiters.isEmpty {
            busy = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}
