import Synchronization

/// The loop both outbox senders run on every instance (webhook deliveries, mail): claim as many
/// due rows as there is room for (`concurrency` in flight), handle each in a task of its own, and
/// claim again when woken by a commit (`wakes`, gathered for `gather` first), every
/// `pollInterval` (retries coming due, a missed notification), and whenever a handling ends. What
/// a claim is (its lease, its `SKIP LOCKED`) and what handling records are the caller's; the loop
/// holds nothing a second instance needs. It ends when its task is cancelled.
package enum ClaimLoop {
    package static func run<Item: Sendable>(
        concurrency: Int, pollInterval: Duration, wakes: AsyncStream<Void>, gather: Duration = .zero,
        claim: @escaping @Sendable (_ room: Int) async throws -> [Item], claimFailed: @escaping @Sendable (any Error) -> Void,
        handle: @escaping @Sendable (Item) async -> Void
    ) async {
        let (signals, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let inFlight = InFlightCount()
        await withDiscardingTaskGroup { group in
            group.addTask {
                // Wake-ups that arrive while gathering are one (the stream keeps the newest only).
                for await _ in wakes {
                    if gather > .zero { try? await Task.sleep(for: gather) }
                    signal.yield()
                }
            }
            group.addTask {
                while !Task.isCancelled {
                    signal.yield()
                    try? await Task.sleep(for: pollInterval)
                }
                signal.finish()
            }
            for await _ in signals {
                guard !Task.isCancelled else { break }
                while !Task.isCancelled {
                    let room = concurrency - inFlight.value
                    guard room > 0 else { break }
                    let claimed: [Item]
                    do {
                        claimed = try await claim(room)
                    } catch {
                        claimFailed(error)
                        break
                    }
                    for item in claimed {
                        inFlight.add(1)
                        group.addTask {
                            await handle(item)
                            inFlight.add(-1)
                            signal.yield()
                        }
                    }
                    if claimed.count < room { break }
                }
            }
            group.cancelAll()
        }
    }
}

/// How many claimed rows this instance has in flight.
package final class InFlightCount: Sendable {
    private let count = Mutex(0)
    package init() {}
    package var value: Int { count.withLock { $0 } }
    package func add(_ change: Int) { count.withLock { $0 += change } }
}
