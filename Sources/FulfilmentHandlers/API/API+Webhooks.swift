import Foundation
import FulfilmentDomain

/// Webhook endpoints and their deliveries (issue 14): a manager keeps their store's, an admin
/// every one. Rules, scoping and SQL live in `Webhooks/`; the dispatcher sends.
extension API {

    func createWebhook(_ input: Operations.CreateWebhook.Input) async throws -> Operations.CreateWebhook.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let store = try body.storeId.map { text throws(WebhookError) in
            guard let id = StoreID(text) else { throw .storeNotFound }
            return id
        }
        let (endpoint, secret) = try await services.webhooks.create(
            .init(url: body.url, eventTypes: body.eventTypes?.map(\.rawValue) ?? [], description: body.description ?? "", store: store),
            by: try Identity.required, logger: logger)
        return .created(.init(body: .json(.init(value1: try .init(endpoint), value2: .init(secret: secret)))))
    }

    func listWebhooks(_ input: Operations.ListWebhooks.Input) async throws -> Operations.ListWebhooks.Output {
        let page = try await services.webhooks.list(
            by: try Identity.required, limit: try pageSize(input.query.limit), cursor: input.query.cursor, logger: logger)
        return .ok(.init(body: .json(.init(items: try page.items.map(Components.Schemas.WebhookEndpoint.init), nextCursor: page.nextCursor))))
    }

    func getWebhook(_ input: Operations.GetWebhook.Input) async throws -> Operations.GetWebhook.Output {
        let endpoint = try await services.webhooks.endpoint(try webhookID(input.path.webhookId), by: try Identity.required, logger: logger)
        return .ok(.init(body: .json(try .init(endpoint))))
    }

    func updateWebhook(_ input: Operations.UpdateWebhook.Input) async throws -> Operations.UpdateWebhook.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let endpoint = try await services.webhooks.update(
            try webhookID(input.path.webhookId), by: try Identity.required, url: body.url, eventTypes: body.eventTypes?.map(\.rawValue),
            description: body.description, enabled: body.enabled, logger: logger)
        return .ok(.init(body: .json(try .init(endpoint))))
    }

    func deleteWebhook(_ input: Operations.DeleteWebhook.Input) async throws -> Operations.DeleteWebhook.Output {
        try await services.webhooks.delete(try webhookID(input.path.webhookId), by: try Identity.required, logger: logger)
        return .noContent(.init())
    }

    func listWebhookDeliveries(_ input: Operations.ListWebhookDeliveries.Input) async throws -> Operations.ListWebhookDeliveries.Output {
        let page = try await services.webhooks.deliveries(
            of: try webhookID(input.path.webhookId), by: try Identity.required, limit: try pageSize(input.query.limit),
            cursor: input.query.cursor, logger: logger)
        return .ok(.init(body: .json(.init(items: try page.items.map(Components.Schemas.WebhookDelivery.init), nextCursor: page.nextCursor))))
    }

    func redeliverWebhook(_ input: Operations.RedeliverWebhook.Input) async throws -> Operations.RedeliverWebhook.Output {
        guard let delivery = WebhookDeliveryID(input.path.deliveryId) else { throw WebhookError.deliveryNotFound }
        let redone = try await services.webhooks.redeliver(
            delivery, of: try webhookID(input.path.webhookId), by: try Identity.required, logger: logger)
        return .accepted(.init(body: .json(try .init(redone))))
    }

    func testWebhook(_ input: Operations.TestWebhook.Input) async throws -> Operations.TestWebhook.Output {
        let outcome = try await services.webhooks.sendTest(try webhookID(input.path.webhookId), by: try Identity.required, logger: logger)
        return .ok(.init(body: .json(.init(delivered: outcome.delivered, responseCode: outcome.responseCode, error: outcome.error))))
    }

    func rotateWebhookSecret(_ input: Operations.RotateWebhookSecret.Input) async throws -> Operations.RotateWebhookSecret.Output {
        let (endpoint, secret) = try await services.webhooks.rotateSecret(
            try webhookID(input.path.webhookId), by: try Identity.required, logger: logger)
        return .ok(.init(body: .json(.init(value1: try .init(endpoint), value2: .init(secret: secret)))))
    }

    private func webhookID(_ text: String) throws(WebhookError) -> WebhookEndpointID {
        guard let id = WebhookEndpointID(text) else { throw .endpointNotFound }
        return id
    }
}

extension Components.Schemas.WebhookEndpoint {
    init(_ endpoint: WebhookEndpoint) throws {
        self.init(
            id: endpoint.id.description, storeId: endpoint.store?.description, url: endpoint.url, description: endpoint.description,
            eventTypes: endpoint.eventTypes.compactMap(Components.Schemas.WebhookEventType.init(rawValue:)), enabled: endpoint.enabled,
            disabledReason: endpoint.disabledReason, failingSince: endpoint.failingSince, createdAt: endpoint.createdAt,
            updatedAt: endpoint.updatedAt)
    }
}

extension Components.Schemas.WebhookDelivery {
    init(_ delivery: WebhookDelivery) throws {
        self.init(
            id: delivery.id.description, eventId: delivery.eventID.description,
            eventType: try .matching(delivery.eventType), status: try .matching(delivery.status.rawValue),
            attempts: delivery.attempts, lastResponseCode: delivery.lastResponseCode, lastError: delivery.lastError,
            lastAttemptAt: delivery.lastAttemptAt, nextAttemptAt: delivery.nextAttemptAt, createdAt: delivery.createdAt)
    }
}
