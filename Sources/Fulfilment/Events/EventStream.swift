import Foundation
import Logging
import OpenAPIRuntime
import ServiceLifecycle

/// Outbox events as server-sent events: what is already in the outbox after the client's
/// place first, then each event as its commit's notification arrives (`EventBus`), a comment
/// line every `heartbeat` so proxies keep the connection and a vanished client is noticed,
/// and the end of the stream when the client goes away or the service shuts down.
struct EventStream: Sendable {
    let database: Database
    let bus: EventBus
    let heartbeat: Duration
    /// Events read from the outbox per query while catching up.
    static let pageSize = 200

    /// The body of a `text/event-stream` response for `scope`, from after `sequence`.
    func body(_ scope: EventQueries.Scope, after sequence: Int64, logger: Logger) -> HTTPBody {
        let (frames, output) = AsyncThrowingStream.makeStream(of: ArraySlice<UInt8>.self)
        // Subscribed before the first read, so nothing committed in between is missed.
        let wakes = bus.subscribe(store: scope.store)
        let pump = Task {
            await cancelWhenGracefulShutdown {
                do {
                    try await self.pump(scope, after: sequence, wakes: wakes, into: output, logger: logger)
                } catch {
                    if !Task.isCancelled {
                        logger.notice("event stream ended", metadata: ["error": "\(String(reflecting: error).prefix(200))"])
                    }
                }
            }
            output.finish()
        }
        // The client went away (the body's reader stopped): stop reading the outbox for it.
        output.onTermination = { _ in pump.cancel() }
        return HTTPBody(frames, length: .unknown, iterationBehavior: .single)
    }

    private enum Signal { case wake, heartbeat }

    private func pump(
        _ scope: EventQueries.Scope, after start: Int64, wakes: AsyncStream<Void>,
        into output: AsyncThrowingStream<ArraySlice<UInt8>, any Error>.Continuation, logger: Logger
    ) async throws {
        let (signals, signal) = AsyncStream.makeStream(of: Signal.self, bufferingPolicy: .bufferingNewest(4))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await _ in wakes { signal.yield(.wake) }
                signal.finish()  // the bus shut down
            }
            group.addTask {
                while !Task.isCancelled {
                    try await Task.sleep(for: heartbeat)
                    signal.yield(.heartbeat)
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
                case .heartbeat: output.yield(Self.frame(": heartbeat\n\n"))
                case .wake: last = try await catchUp(scope, after: last, into: output, logger: logger)
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
    static func serverSentEvent(_ event: OutboxEvent) -> String {
        "id: \(event.sequence)\nevent: \(event.type)\ndata: \(event.json)\n\n"
    }

    private static func frame(_ text: String) -> ArraySlice<UInt8> { ArraySlice(text.utf8) }

    /// Where a store's stream starts: after `Last-Event-ID` when the client sent one, else now.
    func storeStart(_ store: StoreID, lastEventID header: String?, logger: Logger) async throws -> Int64 {
        if let after = try Self.lastEventID(header) { return after }
        return try await EventQueries.lastSequence(of: store, on: database.client, logger: logger)
    }

    /// `Last-Event-ID` as a sequence number: digits only (nil header: nil).
    static func lastEventID(_ header: String?) throws -> Int64? {
        guard let header else { return nil }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (48...57).contains($0) }), let value = Int64(trimmed) else {
            throw APIError(.unprocessableContent, "invalid_last_event_id", "Last-Event-ID must be the sequence number of an event.",
                details: ["field": "Last-Event-ID"])
        }
        return value
    }
}
