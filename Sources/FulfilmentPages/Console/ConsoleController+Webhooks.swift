import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// Webhooks (issue 46), `/console/webhooks`, for a manager (their store's endpoints) and the
/// chain's admin (every one): add an endpoint (its secret shown once), change it, stop and start
/// it (starting again after the dispatcher gave up), send a test, make a new secret, remove it,
/// and read its deliveries, sending one again. Each form is its API operation (`createWebhook`,
/// `updateWebhook`, `testWebhook`, `rotateWebhookSecret`, `deleteWebhook`, `redeliverWebhook`);
/// the caller's scope is bound into every query, so another store's endpoint is not found.
extension ConsoleController {
    var webhooks: Webhooks { services.webhooks }

    func registerWebhooks(on router: RouteCollection<AppRequestContext>) {
        router.get("/console/webhooks") { request, context in
            try await page(request, context, operation: "listWebhooks") { visit in
                try await webhooksPage(visit, notice: nil)
            }
        }
        router.post("/console/webhooks") { request, context in
            try await page(request, context, operation: "createWebhook") { visit in
                do {
                    let store = try visit.form.text("storeId").map { text throws(WebhookError) in
                        guard let id = StoreID(text) else { throw .storeNotFound }
                        return id
                    }
                    let (endpoint, secret) = try await webhooks.create(
                        .init(
                            url: visit.form.text("url") ?? "", eventTypes: WebhooksView.selectedTypes(visit.form),
                            description: visit.form["description"] ?? "", store: store), by: visit.identity, logger: visit.logger)
                    return try await webhookPage(
                        visit, id: endpoint.id, notice: Notice(ok: true, text: "Added: events go to \(endpoint.url)."), secret: secret)
                } catch {
                    let refused = try Self.clientRefusal(error)
                    return try await webhooksPage(visit, notice: Notice(ok: false, text: refused.message), typed: visit.form, status: refused.status)
                }
            }
        }
        router.get("/console/webhooks/:webhookId") { request, context in
            let id = context.parameters.get("webhookId") ?? ""
            return try await page(request, context, operation: "getWebhook") { visit in
                try await webhookPage(visit, id: try Self.webhookID(id), notice: nil)
            }
        }
        router.post("/console/webhooks/:webhookId/delete") { request, context in
            let id = context.parameters.get("webhookId") ?? ""
            return try await page(request, context, operation: "deleteWebhook") { visit in
                let endpoint = try Self.webhookID(id)
                do {
                    guard visit.form.text("confirm") == "yes" else {
                        throw APIError.invalidField("confirm", "Tick “Remove it and its deliveries for good” to remove it.")
                    }
                    try await webhooks.delete(endpoint, by: visit.identity, logger: visit.logger)
                    return try await webhooksPage(visit, notice: Notice(ok: true, text: "The endpoint and its deliveries were removed."))
                } catch {
                    let refused = try Self.clientRefusal(error)
                    return try await webhookPage(visit, id: endpoint, notice: Notice(ok: false, text: refused.message), status: refused.status)
                }
            }
        }
        registerWebhookEdits(on: router)
    }

    /// The forms on an endpoint's page, each shown again with its sentence.
    private func registerWebhookEdits(on router: RouteCollection<AppRequestContext>) {
        router.post("/console/webhooks/:webhookId") { request, context in
            try await webhookForm(request, context, operation: "updateWebhook", keepTyped: true) { visit, id in
                let endpoint = try await webhooks.update(
                    id, by: visit.identity, url: visit.form.text("url") ?? "", eventTypes: WebhooksView.selectedTypes(visit.form),
                    description: visit.form["description"] ?? "", enabled: nil, logger: visit.logger)
                return (Notice(ok: true, text: "Saved: events go to \(endpoint.url)."), nil)
            }
        }
        for (verb, enabled) in [("enable", true), ("disable", false)] {
            router.post("/console/webhooks/:webhookId/\(verb)") { request, context in
                try await webhookForm(request, context, operation: "updateWebhook") { visit, id in
                    _ = try await webhooks.update(
                        id, by: visit.identity, url: nil, eventTypes: nil, description: nil, enabled: enabled, logger: visit.logger)
                    return (
                        Notice(
                            ok: true,
                            text: enabled ? "Sending again, the deliveries waiting first." : "Stopped: events wait until it is sending again."), nil
                    )
                }
            }
        }
        router.post("/console/webhooks/:webhookId/test") { request, context in
            try await webhookForm(request, context, operation: "testWebhook") { visit, id in
                let outcome = try await webhooks.sendTest(id, by: visit.identity, logger: visit.logger)
                if outcome.delivered { return (Notice(ok: true, text: "The test was delivered (HTTP \(outcome.responseCode ?? 200))."), nil) }
                // The receiver's failure, not the caller's: said in red on a page that worked.
                let answer = outcome.responseCode.map { "it answered HTTP \($0)" } ?? "nothing answered"
                return (Notice(ok: false, text: "The test was not delivered: \(answer)\(outcome.error.map { " (\($0))" } ?? "")."), nil)
            }
        }
        router.post("/console/webhooks/:webhookId/secret") { request, context in
            try await webhookForm(request, context, operation: "rotateWebhookSecret") { visit, id in
                guard visit.form.text("confirm") == "yes" else {
                    throw APIError.invalidField("confirm", "Tick “The receiving system will be given the new secret” first.")
                }
                let (_, secret) = try await webhooks.rotateSecret(id, by: visit.identity, logger: visit.logger)
                return (Notice(ok: true, text: "A new secret signs every delivery from now on; the old one no longer does."), secret)
            }
        }
        router.post("/console/webhooks/:webhookId/deliveries/:deliveryId/redeliver") { request, context in
            let delivery = context.parameters.get("deliveryId") ?? ""
            return try await webhookForm(request, context, operation: "redeliverWebhook") { visit, id in
                guard let deliveryID = WebhookDeliveryID(delivery) else { throw WebhookError.deliveryNotFound }
                let redone = try await webhooks.redeliver(deliveryID, of: id, by: visit.identity, logger: visit.logger)
                return (Notice(ok: true, text: "The \(redone.eventType) delivery goes again within a few seconds."), nil)
            }
        }
    }

    /// A form on an endpoint's page: `body`'s sentence (and a new secret, shown once), or the
    /// refusal's, above the page drawn again. A test the receiver failed is said in red too.
    private func webhookForm(
        _ request: Request, _ context: AppRequestContext, operation: String, keepTyped: Bool = false,
        _ body: @escaping @Sendable (PageVisit, WebhookEndpointID) async throws -> (Notice, String?)
    ) async throws -> Response {
        let id = context.parameters.get("webhookId") ?? ""
        return try await page(request, context, operation: operation) { visit in
            let endpoint = try Self.webhookID(id)
            do {
                let (notice, secret) = try await body(visit, endpoint)
                return try await webhookPage(visit, id: endpoint, notice: notice, secret: secret)
            } catch {
                let refused = try Self.clientRefusal(error)
                return try await webhookPage(
                    visit, id: endpoint, notice: Notice(ok: false, text: refused.message), typed: keepTyped ? visit.form : nil,
                    status: refused.status)
            }
        }
    }

    private static func webhookID(_ text: String) throws(WebhookError) -> WebhookEndpointID {
        guard let id = WebhookEndpointID(text) else { throw .endpointNotFound }
        return id
    }

    func webhooksPage(_ visit: PageVisit, notice: Notice?, typed: ConsoleForm? = nil, status: HTTPResponse.Status = .ok) async throws -> Response {
        let endpoints = try await webhooks.list(by: visit.identity, limit: 100, cursor: nil, logger: visit.logger).items
        let isAdmin = visit.identity.role == .admin
        let stores = isAdmin ? try await catalogue.stores(logger: visit.logger) : []
        return WebhooksView.list(
            session: visit.session, csrf: ConsolePage.csrfInput(visit.session), notice: notice, endpoints: endpoints, stores: stores,
            isAdmin: isAdmin, typed: typed
        ).response(status: status)
    }

    func webhookPage(
        _ visit: PageVisit, id: WebhookEndpointID, notice: Notice?, secret: String? = nil, typed: ConsoleForm? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let endpoint = try await webhooks.endpoint(id, by: visit.identity, logger: visit.logger)
        let deliveries = try await webhooks.deliveries(of: id, by: visit.identity, limit: 50, cursor: nil, logger: visit.logger).items
        let stores = visit.identity.role == .admin ? try await catalogue.stores(logger: visit.logger) : []
        // Like every console page, never stored by a cache (`ConsolePage.headers`): one may show a secret.
        return WebhooksView.endpoint(
            session: visit.session, csrf: ConsolePage.csrfInput(visit.session), notice: notice, endpoint: endpoint, stores: stores,
            deliveries: deliveries, secret: secret, typed: typed
        ).response(status: status)
    }
}
