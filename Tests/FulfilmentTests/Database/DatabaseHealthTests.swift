import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// The per-request watchdog behind `503 database_unavailable`: woken when the probe finds the
/// database gone, and nothing left behind by the requests that finish first (the common case).
@Suite struct DatabaseHealthTests {
    @Test("a request's watchdog wakes when the database is found gone, and leaves nothing behind when the request ends first")
    func watchdog() async throws {
        let health = DatabaseHealth()

        // The request ends first: its watchdog is cancelled and removed.
        let finished = Task { await health.untilUnreachable() }
        try await waitUntil { health.waiterCount == 1 }
        finished.cancel()
        await finished.value
        #expect(health.waiterCount == 0)

        // The database is found gone while two requests wait: both wake, once.
        let first = Task { await health.untilUnreachable() }
        let second = Task { await health.untilUnreachable() }
        try await waitUntil { health.waiterCount == 2 }
        #expect(health.record(reachable: false))
        await first.value
        await second.value
        #expect(health.waiterCount == 0)

        // Already gone: a new request's watchdog fires at once; back again: it waits.
        await health.untilUnreachable()
        #expect(health.record(reachable: true))
        let later = Task { await health.untilUnreachable() }
        try await waitUntil { health.waiterCount == 1 }
        later.cancel()
        await later.value
        #expect(health.waiterCount == 0)
    }

    private func waitUntil(_ condition: () -> Bool) async throws {
        for _ in 0..<2000 where !condition() { try await Task.sleep(for: .milliseconds(5)) }
        try #require(condition())
    }
}
