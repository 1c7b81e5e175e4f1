import Foundation
import Logging
import OpenAPIRuntime
import ServiceLifecycle
import Synchronization

/// Outbox events as server-sent events: what is already in the outbox after the client's
/// place first, then each event as its commit's notification arrives (`EventBus`), a comment
/// line every `heartbeat` so proxies keep the connection and a vanished client is noticed,
/// and the end of the stream when the client goes away, the service shuts down, or the session
/// that opened it ends (logout, a disabled account, a password change, expiry: issue 24).
///
/// A stream is its session's (`StreamLease`): a session has at most `perSession` open across
/// every instance, counted in the database (`sql/routines/open_event_stream.sql`). It ends at once when its session is
/// ended (a notice through the `EventBus`), and looks at the session again when it would expire
/// and with every heartbeat, so no notice missed can keep it open past its session.
package struct EventStream: Sendable {
    package let database: Database
    package let bus: EventBus
    package let heartbeat: Duration

    /// The sessions' lifetimes, for when a stream's session would expire.
    package var lifetime = SessionLifetime()
    /// The most live streams one session may have open (`FULFILMENT_EVENT_STREAMS_PER_SESSION`).
    package var perSession = 5

    package init(database: Database, bus: EventBus, heartbeat: Duration, lifetime: SessionLifetime = SessionLifetime(), perSession: Int = 5) {
        self.database = database
        self.bus = bus
        self.heartbeat = heartbeat
        self.lifetime = lifetime
        self.perSession = perSession
    }
    /// Events read from the outbox per query while catching up.
    package static let pageSize = 200

    /// A stream's claim on its session: one of the session's `perSession` places, renewed with
    /// each heartbeat; a place not renewed for three heartbeats (an instance that died) is free.
    package struct Lease: Sendable {
        package let id: EventStreamID
        package let session: SessionID
        package let deadline: Date
    }

    /// Takes one of `identity`'s session's places, or refuses: `429 too_many_streams` when the
    /// session has all its streams open, 401 when the session is no longer live. With
    /// `takingOver` (a page's stream, which a reload opens again before the old one is noticed
    /// gone), the place of the session's stalest stream instead of a 429; that one ends.
    package func open(for identity: Identity, takingOver: Bool = false, logger: Logger) async throws -> Lease {
        let id = EventStreamID(UUID())
        let (opened, deadline) = try await EventStreamQueries.open(
            id, session: identity.sessionID, cap: perSession, staleAfter: heartbeat * 3 + .seconds(5), lifetime: lifetime,
            takeOver: takingOver, on: database.client, logger: logger)
        guard let deadline else { throw AccessError.unauthenticated }
        guard opened else { throw EventStreamError.tooManyStreams(limit: perSession) }
        return Lease(id: id, session: identity.sessionID, deadline: deadline)
    }

    /// The body of a `text/event-stream` response for `scope`, from after `sequence`, for as long
    /// as `lease`'s session lives.
    package func body(_ scope: EventQueries.Scope, after sequence: Int64, lease: Lease, logger: Logger) -> HTTPBody {
        let (frames, output) = AsyncThrowingStream.makeStream(of: ArraySlice<UInt8>.self)
        // Subscribed before the first read, so nothing committed in between is missed.
        let wakes = bus.subscribe(store: scope.store)
        let sessionEnds = bus.watch(session: lease.session)
        let pump = Task {
            await cancelWhenGracefulShutdown {
                do {
                    try await self.pump(scope, after: sequence, wakes: wakes, lease: lease, sessionEnds: sessionEnds, into: output, logger: logger)
                } catch {
                    if !Task.isCancelled {
                        logger.notice("event stream ended", metadata: ["error": "\(String(reflecting: error).prefix(200))"])
                    }
                }
            }
            output.finish()
            // Its place is free again (not in this task, which may be cancelled by now).
            Task.detached { try? await EventStreamQueries.close(lease.id, on: self.database.client, logger: logger) }
        }
        // The client went away (the body's reader stopped): stop reading the outbox for it.
        output.onTermination = { _ in pump.cancel() }
        return HTTPBody(frames, length: .unknown, iterationBehavior: .single)
    }

    private enum Signal { case wake, heartbeat, session }

    /// When the stream's session would expire: moved on by each look at the session, read by the
    /// timer that looks again then.
    private final class SharedDeadline: Sendable {
        package let value: Mutex<Date>
        package init(_ date: Date) { value = Mutex(date) }
    }

    private func pump(
        _ scope: EventQueries.Scope, after start: Int64, wakes: AsyncStream<Void>, lease: Lease, sessionEnds: AsyncStream<Void>,
        into output: AsyncThrowingStream<ArraySlice<UInt8>, any Error>.Continuation, logger: Logger
    ) async throws {
        let (signals, signal) = AsyncStream.makeStream(of: Signal.self, bufferingPolicy: .bufferingNewest(4))
        let deadline = SharedDeadline(lease.deadline)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await _ in wakes { signal.yield(.wake) }
                signal.finish()  // the bus shut down
            }
            group.addTask {
                for await _ in sessionEnds { signal.yield(.session) }
            }
            group.addTask {
                while !Task.isCancelled {
                    try await Task.sleep(for: heartbeat)
                    signal.yield(.heartbeat)
                }
            }
            group.addTask {
                // When the session would expire unused, look again (a use meanwhile moves it on).
                while !Task.isCancelled {
                    let wait = deadline.value.withLock { $0 }.timeIntervalSinceNow
                    try await Task.sleep(for: .milliseconds(Int64(max(wait, 0.25) * 1000) + 50))
                    signal.yield(.session)
                }
            }
            defer { group.cancelAll() }
            // Browsers reconnect after this many milliseconds, sending `Last-Event-ID`.
            output.yield(Self.frame("retry: 2000\n\n"))
            var last = start
            last = try await catchUp(scope, after: last, into: output, logger: logger)
            for await received in signals {
                try Task.checkCancellation()
                switch received {
                case .wake:
                    last = try await catchUp(scope, after: last, into: output, logger: logger)
                case .heartbeat, .session:
                    guard let next = try await EventStreamQueries.renew(lease.id, lifetime: lifetime, on: database.client, logger: logger)
                    else { return }  // the session ended, or a page of it took this place: the stream ends
                    deadline.value.withLock { $0 = next }
                    if received == .heartbeat { output.yield(Self.frame(": heartbeat\n\n")) }
                }
            }
        }
    }

    /// Sends every event after `sequence`; the last sequence sent.
    private func catchUp(
        _ scope: EventQueries.Scope, after sequence: Int64,
        into output: AsyncThrowingStream<ArraySlice<UInt8>, any Error>.Continuation, logger: Logger
    ) async throws -> Int64 {
        var last = sequence
        while true {
            let events = try await EventQueries.events(scope, after: last, limit: Self.pageSize, on: database.client, logger: logger)
            for event in events {
                output.yield(Self.frame(Self.serverSentEvent(event)))
                last = event.sequence
            }
            if events.count < Self.pageSize { return last }
        }
    }

    /// One event in the SSE format: the event JSON holds no line break, so one `data:` line.
    package static func serverSentEvent(_ event: OutboxEvent) -> String {
        "id: \(event.sequence)\nevent: \(event.type)\ndata: \(event.json)\n\n"
    }

    private static func frame(_ text: String) -> ArraySlice<UInt8> { ArraySlice(text.utf8) }

    /// Where a store's stream starts: after `Last-Event-ID` when the client sent one, else now.
    package func storeStart(_ store: StoreID, lastEventID header: String?, logger: Logger) async throws -> Int64 {
        if let after = try Self.lastEventID(header) { return after }
        return try await EventQueries.lastSequence(of: store, on: database.client, logger: logger)
    }

    /// `Last-Event-ID` as a sequence number: digits only (nil header: nil).
    package static func lastEventID(_ header: String?) throws(EventStreamError) -> Int64? {
        guard let header else { return nil }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (48...57).contains($0) }), let value = Int64(trimmed) else {
            throw EventStreamError.invalidLastEventID
        }
        return value
    }
}
