import Foundation
import FulfilmentDomain
import OpenAPIRuntime

/// The ready message again (its order's store's staff), and live streams of the outbox's services.events.
extension API {

    func notifyOrderReady(_ input: Operations.NotifyOrderReady.Input) async throws -> Operations.NotifyOrderReady.Output {
        guard let id = OrderID(input.path.orderId) else { throw OrderError.orderNotFound }
        let identity = try Identity.required
        let order = try await services.readyNotifications.resend(order: id, by: identity, logger: logger)
        return .ok(.init(body: .json(try .init(order, for: identity))))
    }

    func streamStoreEvents(_ input: Operations.StreamStoreEvents.Input) async throws -> Operations.StreamStoreEvents.Output {
        guard let store = StoreID(input.path.storeId) else { throw OrderError.storeNotFound }
        let start = try await services.events.storeStart(store, lastEventID: input.headers.lastEventID, logger: logger)
        let lease = try await services.events.open(for: try Identity.required, logger: logger)
        return .ok(
            .init(
                headers: .init(cacheControl: "no-store"),
                body: .textEventStream(
                    services.events.body(.store(store), after: start, lease: lease, logger: logger))))
    }

    func streamOrderEvents(_ input: Operations.StreamOrderEvents.Input) async throws -> Operations.StreamOrderEvents.Output {
        let order = try await visibleOrder(input.path.orderId)
        // Without Last-Event-ID the stream starts with the order's whole story.
        let after = try EventStream.lastEventID(input.headers.lastEventID) ?? 0
        let lease = try await services.events.open(for: try Identity.required, logger: logger)
        return .ok(
            .init(
                headers: .init(cacheControl: "no-store"),
                body: .textEventStream(
                    services.events.body(.order(order.id, store: order.storeID), after: after, lease: lease, logger: logger))))
    }
}
