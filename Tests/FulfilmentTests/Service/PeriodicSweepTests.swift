import Logging
import Testing

@testable import FulfilmentDomain

/// The background sweeps (uncollected orders, late risk) share one loop: a sweep that fails
/// because the database is away must not end it, or the instance would silently stop expiring
/// orders until it restarts.
@Suite("The periodic sweep")
struct PeriodicSweepTests {
    actor Ticks {
        var count = 0
        func next() -> Int {
            count += 1
            return count
        }
    }

    @Test("a failed sweep is tried again at the next tick, and the loop ends when its task is cancelled", .timeLimit(.minutes(1)))
    func keepsSweepingAfterAFailure() async throws {
        struct DatabaseAway: Error {}
        let ticks = Ticks()
        let (reached, reachedThree) = AsyncStream.makeStream(of: Void.self)
        let sweep = PeriodicSweep("test sweep", every: .milliseconds(5), logger: Logger(label: "sweep-test")) {
            let tick = await ticks.next()
            if tick == 3 { reachedThree.yield() }
            // The first two ticks fail as a sweep does when PostgreSQL is away.
            if tick <= 2 { throw DatabaseAway() }
        }
        let running = Task { try await sweep.run() }
        for await _ in reached { break }
        running.cancel()
        try await running.value
        let afterStop = await ticks.count
        #expect(afterStop >= 3)
        // Stopped means stopped: no tick after the task has ended.
        try await Task.sleep(for: .milliseconds(50))
        #expect(await ticks.count == afterStop)
    }
}
