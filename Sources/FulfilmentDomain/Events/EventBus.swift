import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// This instance's ear on the outbox: one connection LISTENing on `fulfilment_events`.
///
/// An event is committed unnumbered and notified as `<store id>` (`sql/routines/emit_event.sql`); the bus then
/// asks PostgreSQL to number that store's new events (`number_events`, one numberer per store
/// at a time across every instance), which notifies `<store id> <sequence>`, waking the live
/// streams of that store, and `<store id> <sequence> webhooks` when the store has an endpoint to
/// send to, waking the webhook dispatcher too (`sql/routines/number_events.sql`). Numbering after commit is what lets a
/// store's commits run side by side; streams and deliveries read numbered events only.
///
/// The outbox stays the truth: a wake-up only says "read again" (or "number again"), so a lost or
/// merged notification costs a moment, never an event: on (re)connecting, and every few seconds,
/// the bus numbers whatever any store has left unnumbered.
public final class EventBus: Service, Sendable {
    package static let channel = "fulfilment_events"

    private let database: Database
    private let logger: Logger
    private let state = Mutex(State())

    private struct State {
        package var nextID = 0
        package var subscribers: [Int: Subscriber] = [:]
        package var closed = false
        /// Stores with events written and not yet numbered by this instance's request.
        package var toNumber: Set<StoreID> = []
        /// Number every store's leftovers (on connecting, every few seconds, after a failure).
        package var sweep = true
        /// Live event streams (subscribers of one store).
        package var streamCount: Int { subscribers.values.filter { if case .store = $0.kind { true } else { false } }.count }
    }

    private struct Subscriber {
        package enum Kind {
            /// A live stream of one store's events.
            case store(StoreID)
            /// Every store's (the webhook dispatcher).
            case all
            /// A live stream's session: woken when it may have ended.
            case session(SessionID)
            /// The mail sender: woken when a message was queued (`queue_message`).
            case mail
        }

        package var kind: Kind
        package var wake: AsyncStream<Void>.Continuation
    }

    package init(database: Database, logger: Logger) {
        self.database = database
        self.logger = logger
    }

    /// A sequence that yields whenever an event of `store` may have been committed (and once when
    /// the listening connection comes back, since notifications may have been missed meanwhile).
    /// It ends when the service shuts down; stop iterating to unsubscribe.
    package func subscribe(store: StoreID) -> AsyncStream<Void> {
        subscribe(.store(store))
    }

    /// A sequence that yields when `session` has ended (logout, a disabled account, a password
    /// change: `sql/routines/session_ended_notify.sql`), and when the listening connection comes back, since the notice
    /// may have been missed meanwhile; the stream then looks at its session again. It ends when
    /// the service shuts down.
    package func watch(session: SessionID) -> AsyncStream<Void> {
        subscribe(.session(session))
    }

    /// Wakes when events of a store with a webhook endpoint are numbered, whatever the store (the
    /// webhook dispatcher, so new deliveries go at once), and when the listener (re)connects. Not
    /// counted as a live stream.
    package func subscribeToAll() -> AsyncStream<Void> {
        subscribe(.all)
    }

    /// Wakes when a commit queued mail (`sql/routines/queue_message.sql`) or wrote events (whose
    /// mail `queue_event_messages` writes in the same commit), and when the listener (re)connects:
    /// the mail sender claims then rather than at its next poll.
    package func subscribeToMail() -> AsyncStream<Void> {
        subscribe(.mail)
    }

    private func subscribe(_ kind: Subscriber.Kind) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id: Int? = state.withLock { state in
            guard !state.closed else { return nil }
            state.nextID += 1
            state.subscribers[state.nextID] = Subscriber(kind: kind, wake: continuation)
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

    /// Wakes the streams of `store` (every store's when nil), and the every-store subscribers
    /// (the dispatcher) when `all`.
    private func wake(store: StoreID?, all: Bool) {
        wake { kind in
            switch kind {
            case .store(let theirs): store == nil || theirs == store
            case .all: all
            case .session, .mail: false
            }
        }
    }

    private func wakeMail() {
        wake { kind in if case .mail = kind { true } else { false } }
    }

    /// Wakes the watchers of `session` (of every session when nil).
    private func wake(session: SessionID?) {
        wake { kind in
            if case .session(let theirs) = kind { session == nil || theirs == session } else { false }
        }
    }

    private func wake(where wanted: (Subscriber.Kind) -> Bool) {
        state.withLock { state in
            for subscriber in state.subscribers.values where wanted(subscriber.kind) { subscriber.wake.yield() }
        }
    }

    /// How often the bus numbers whatever is left unnumbered, whoever wrote it.
    package static let sweepInterval: Duration = .seconds(5)

    public func run() async throws {
        let (numbering, numberingWake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.listen(numberingWake: numberingWake) }
                group.addTask { await self.number(on: numbering) }
                group.addTask {
                    while (try? await Task.sleep(for: Self.sweepInterval)) != nil {
                        self.state.withLock { $0.sweep = true }
                        numberingWake.yield()
                    }
                }
                await group.next()
                group.cancelAll()
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

    private func listen(numberingWake: AsyncStream<Void>.Continuation) async {
        var failures = 0
        while !Task.isCancelled {
            let listened = ListenedFlag()
            do {
                // On the primary as the probe last found it; a failover followed meanwhile ends
                // this listen, and the next one is on the new primary (issue 29).
                try await database.onPrimary { client in
                    try await client.withConnection { connection in
                        try await connection.listen(on: Self.channel) { notifications in
                            listened.set()
                            // Anything committed while no one listened is numbered and read again now.
                            self.state.withLock { $0.sweep = true }
                            numberingWake.yield()
                            self.wake(store: nil, all: true)
                            self.wake(session: nil)
                            self.wakeMail()
                            for try await notification in notifications {
                                switch Notice(payload: notification.payload) {
                                case .written(let store):
                                    self.state.withLock { _ = $0.toNumber.insert(store) }
                                    numberingWake.yield()
                                    // A commit that wrote events may have written their mail (queue_event_messages).
                                    self.wakeMail()
                                case .numbered(let store, let webhooks):
                                    self.wake(store: store, all: webhooks)
                                case .sessionEnded(let session):
                                    self.wake(session: session)
                                case .mail:
                                    self.wakeMail()
                                case .unreadable:
                                    // Wake everyone rather than miss one.
                                    self.wake(store: nil, all: true)
                                    self.wake(session: nil)
                                }
                            }
                        }
                    }
                }
            } catch {
                guard !Task.isCancelled else { break }
                failures = listened.isSet ? 1 : failures + 1
                self.logger.warning(
                    "event listener lost its connection; listening again shortly",
                    metadata: ["error": "\(String(reflecting: error).prefix(200))"])
            }
            try? await Task.sleep(for: .milliseconds(min(200 * (1 << min(failures, 5)), 5000)))
        }
    }

    /// Whether a listen got as far as listening (then its failure starts the back-off afresh).
    private final class ListenedFlag: Sendable {
        private let value = Mutex(false)
        package var isSet: Bool { value.withLock { $0 } }
        package func set() { value.withLock { $0 = true } }
    }

    /// Numbers the stores asked for, one statement a round; a store asked for again meanwhile is
    /// numbered again in the next round, so nothing written while a round ran is left behind.
    private func number(on wakes: AsyncStream<Void>) async {
        for await _ in wakes {
            let (stores, sweep) = state.withLock { state in
                defer { (state.toNumber, state.sweep) = ([], false) }
                return (Array(state.toNumber), state.sweep)
            }
            do {
                try await database.onPrimary { client in
                    try await EventQueries.number(stores: stores, andLeftovers: sweep, on: client, logger: self.logger)
                }
            } catch {
                guard !Task.isCancelled else { break }
                state.withLock { $0.sweep = true }
                logger.warning(
                    "numbering events failed; trying again shortly", metadata: ["error": "\(String(reflecting: error).prefix(200))"])
            }
        }
    }
}

extension EventBus {
    /// What a notification on the channel says (`emit_event` and `number_events`, in `sql/routines/`).
    package enum Notice: Equatable {
        /// `<store id>`: events of the store committed, not yet numbered.
        case written(StoreID)
        /// `<store id> <last>`, and `<store id> <last> webhooks` when the store (or the chain) has
        /// an enabled endpoint, so the dispatcher has something to send.
        case numbered(StoreID, webhooks: Bool)
        /// `session <session id>`: the session ended (`session_ended_notify`); its streams end.
        case sessionEnded(SessionID)
        /// `mail`: a message was queued (`queue_message`).
        case mail
        case unreadable

        package init(payload: String) {
            if payload == "mail" {
                self = .mail
                return
            }
            let parts = payload.split(separator: " ", omittingEmptySubsequences: false)
            if parts.count == 2, parts[0] == "session" {
                self = SessionID(String(parts[1])).map { .sessionEnded($0) } ?? .unreadable
                return
            }
            guard let store = StoreID(String(parts[0])) else {
                self = .unreadable
                return
            }
            switch parts.count {
            case 1: self = .written(store)
            case 2 where Int64(parts[1]) != nil: self = .numbered(store, webhooks: false)
            case 3 where Int64(parts[1]) != nil && parts[2] == "webhooks": self = .numbered(store, webhooks: true)
            default: self = .unreadable
            }
        }
    }
}
