import Foundation
import OpenAPIRuntime

/// One event of a live stream: its place in its store's sequence, its type
/// (`order.ready_for_pickup`...) and the event's JSON, the same envelope a webhook receives
/// (`{"id", "type", "timestamp", "storeId", "sequence", "data"}`).
public struct LiveEvent: Sendable, Hashable {
    public var sequence: Int64
    public var type: String
    public var json: String

    /// The envelope's `data` decoded as `T` (an order event's `orderId`, `status`...).
    public func data<T: Decodable>(as type: T.Type) throws -> T {
        try JSONDecoder().decode(LiveEventEnvelope<T>.self, from: Data(json.utf8)).data
    }
}

private struct LiveEventEnvelope<T: Decodable>: Decodable {
    var data: T
}

extension FulfilmentAPI {
    /// An order's events as they happen (its customer, or its store's staff), from its whole
    /// story (or from after `sequence`).
    ///
    /// The sequence does not end by itself. When the connection drops it connects again after
    /// the service's `retry:` delay, sending `Last-Event-ID`, so no event is missed or repeated.
    /// It ends when its task is cancelled, and throws ``FulfilmentError`` when the service
    /// refuses (`401` signed out, `404` not yours).
    ///
    /// On Linux, URLSession does not stream: give this client `AsyncHTTPClientTransport` there.
    public func orderEvents(_ orderID: String, after sequence: Int64? = nil) -> AsyncThrowingStream<LiveEvent, any Error> {
        live(after: sequence) { lastEventID in
            try await self.client.streamOrderEvents(path: .init(orderId: orderID), headers: .init(lastEventID: lastEventID))
                .ok.body.textEventStream
        }
    }

    /// A store's events as they happen (its staff), from now (or from after `sequence`), resuming
    /// as ``orderEvents(_:after:)`` does.
    public func storeEvents(_ storeID: String, after sequence: Int64? = nil) -> AsyncThrowingStream<LiveEvent, any Error> {
        live(after: sequence) { lastEventID in
            try await self.client.streamStoreEvents(path: .init(storeId: storeID), headers: .init(lastEventID: lastEventID))
                .ok.body.textEventStream
        }
    }

    private func live(
        after sequence: Int64?, open: @escaping @Sendable (String?) async throws -> HTTPBody
    ) -> AsyncThrowingStream<LiveEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                var last = sequence.map(String.init)
                var delay = Duration.seconds(2)
                while !Task.isCancelled {
                    do {
                        for try await event in try await open(last).asDecodedServerSentEvents() {
                            if let retry = event.retry { delay = .milliseconds(retry) }
                            guard let id = event.id, let number = Int64(id), let data = event.data else { continue }
                            last = id
                            continuation.yield(LiveEvent(sequence: number, type: event.event ?? "", json: data))
                        }
                    } catch let error as ClientError where error.underlyingError is FulfilmentError {
                        continuation.finish(throwing: error.underlyingError)
                        return
                    } catch {
                        // The connection was lost (or the task cancelled): connect again, or stop.
                    }
                    try? await Task.sleep(for: delay)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
