import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// This instance's ear on the outbox: one connection LISTENing on `fulfilment_events`, the
/// channel every event's commit notifies (`<store id> <sequence>`), waking the live streams of
/// that store. The outbox stays the truth: a wake-up only says "read again", so a lost or
/// merged notification costs a moment, never an event, and an event committed by any instance
/// reaches streams on every instance.
public final class EventBus: Service, Sendable {
    static let channel = "fulfilment_events"

    private let database: Database
    private let logger: Logger
    private let state = Mutex(State())

    private struct State {
        var nextID = 0
        var subscribers: [Int: Subscriber] = [:]
        var closed = false
        /// Live event streams (subscribers of one store).
        var streamCount: Int { subscribers.values.filter { $0.store != nil }.count }
    }

    private struct Subscriber {
        /// nil: every store (the webhook dispatcher).
        var store: StoreID?
        var wake: AsyncStream<Void>.Continuation
    }

    init(database: Database, logger: Logger) {
        self.database = database
        self.logger = logger
    }

    /// A sequence that yields whenever an event of `store` may have been committed (and once when
    /// the listening connection comes back, since notifications may have been missed meanwhile).
    /// It ends when the service shuts down; stop iterating to unsubscribe.
    func subscribe(store: StoreID) -> AsyncStream<Void> {
        subscribe(to: store)
    }

    /// Wakes on every commit that wrote events, whatever the store (the webhook dispatcher, so
    /// new deliveries go at once). Not counted as a live stream.
    func subscribeToAll() -> AsyncStream<Void> {
        subscribe(to: nil)
    }

    private func subscribe(to store: StoreID?) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id: Int? = state.withLock { state in
            guard !state.closed else { return nil }
            state.nextID += 1
            state.subscribers[state.nextID] = Subscriber(store: store, wake: continuation)
            ServiceMetrics.eventStreams(state.streamCount)
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { state in
                state.subscribers.removeValue(forKey: id)
                ServiceMetrics.eventStreams(state.streamCount)
            }
        }
        return stream
    }

    /// How many live streams this instance is serving (for metrics and tests).
    var subscriberCount: Int { state.withLock { $0.streamCount } }

    private func wake(store: StoreID?) {
        state.withLock { state in
            for subscriber in state.subscribers.values where store == nil || subscriber.store == nil || subscriber.store == store {
                subscriber.wake.yield()
            }
        }
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            var failures = 0
            while !Task.isCancelled {
                do {
                    try await self.database.client.withConnection { connection in
                        try await connection.listen(on: Self.channel) { notifications in
                            failures = 0
                            // Anything committed while no one listened is read again now.
                            self.wake(store: nil)
                            for try await notification in notifications {
                                // Unreadable: wake every stream rather than miss one.
                                self.wake(store: notification.payload.split(separator: " ").first.flatMap { StoreID(String($0)) })
                            }
                        }
                    }
                } catch {
                    guard !Task.isCancelled else { break }
                    failures += 1
                    self.logger.warning(
                        "event listener lost its connection; listening again shortly",
                        metadata: ["error": "\(String(reflecting: error).prefix(200))"])
                }
                try? await Task.sleep(for: .milliseconds(min(200 * (1 << min(failures, 5)), 5000)))
            }
        }
        // Shutting down: every stream ends, so no open response holds the server up.
        let subscribers = state.withLock { state in
            state.closed = true
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.wake.finish() }
    }
}
