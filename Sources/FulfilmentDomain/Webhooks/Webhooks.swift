import Foundation
import Logging
import PostgresNIO

/// A manager's or admin's webhook endpoints and their deliveries: the rules for each field, the
/// caller's `StoreScope` on every query (a manager reaches their store's endpoints, the chain's
/// admin every one, the chain's included), and the secret made here and shown once.
package struct Webhooks: Sendable {
    package let database: Database
    /// Seal each new secret (`WebhookSecrets`): the database holds it encrypted only.
    package let dataKeys: DataKeyStore
    /// URLs whose host is not public are accepted (`WebhookDispatchSettings.allowPrivate`).
    package var allowPrivateAddresses = false

    /// The fields of a new endpoint, as asked.
    package struct Draft: Sendable {
        package var url: String
        package var eventTypes: [String]
        package var description: String
        /// Nil: the manager's own store, or for an admin the whole chain.
        package var store: StoreID?

        package init(url: String, eventTypes: [String], description: String, store: StoreID? = nil) {
            self.url = url
            self.eventTypes = eventTypes
            self.description = description
            self.store = store
        }
    }

    /// A new endpoint and its secret, which is never shown again.
    package func create(_ draft: Draft, by identity: Identity, logger: Logger) async throws -> (WebhookEndpoint, secret: String) {
        let scope = try StoreScope(managerOrAdmin: identity)
        let store: StoreID?
        if scope.isChainWide {
            store = draft.store
        } else {
            guard draft.store == nil || draft.store == scope.store else { throw WebhookError.otherStore }
            store = scope.store
        }
        let url = try WebhookRules.url(draft.url, allowPrivate: allowPrivateAddresses)
        let types = try WebhookRules.eventTypes(draft.eventTypes)
        let description = try WebhookRules.description(draft.description)
        let secret = WebhookSigning.newSecret()
        let endpoint = try await database.transaction(logger: logger) { connection in
            let id = WebhookEndpointID(UUID())
            let key = try await WebhookSecretStorage.writingKey(on: connection, keys: dataKeys, logger: logger)
            return try await WebhookQueries.insert(
                id, store: store, url: url, description: description, eventTypes: types,
                sealedSecret: try WebhookSecrets.seal(secret, endpoint: id, with: key), keyID: key.id, by: identity.userID,
                on: connection, logger: logger)
        }
        logger.info("webhook endpoint created", metadata: ["endpoint": "\(endpoint.id)", "by": "\(identity.userID)"])
        return (endpoint, secret)
    }

    package func list(by identity: Identity, limit: Int, cursor: String?, logger: Logger) async throws -> Page<WebhookEndpoint> {
        let scope = try StoreScope(managerOrAdmin: identity)
        return try await WebhookQueries.list(scope: scope, limit: limit, cursor: cursor, on: database.client, logger: logger)
    }

    package func endpoint(_ id: WebhookEndpointID, by identity: Identity, logger: Logger) async throws -> WebhookEndpoint {
        let scope = try StoreScope(managerOrAdmin: identity)
        return try await database.transaction(logger: logger) { connection in
            guard let endpoint = try await WebhookQueries.find(id, scope: scope, on: connection, logger: logger) else {
                throw WebhookError.endpointNotFound
            }
            return endpoint
        }
    }

    /// Changes the given fields; `enabled: true` also forgets why and since when it failed.
    package func update(
        _ id: WebhookEndpointID, by identity: Identity, url: String?, eventTypes: [String]?, description: String?, enabled: Bool?,
        logger: Logger
    ) async throws -> WebhookEndpoint {
        let scope = try StoreScope(managerOrAdmin: identity)
        let url = try url.map { text throws(WebhookError) in try WebhookRules.url(text, allowPrivate: allowPrivateAddresses) }
        let types = try eventTypes.map { types throws(WebhookError) in try WebhookRules.eventTypes(types) }
        let description = try description.map { text throws(WebhookError) in try WebhookRules.description(text) }
        return try await database.transaction(logger: logger) { connection in
            guard
                let endpoint = try await WebhookQueries.update(
                    id, scope: scope, url: url, description: description, eventTypes: types, enabled: enabled,
                    on: connection, logger: logger)
            else { throw WebhookError.endpointNotFound }
            return endpoint
        }
    }

    package func delete(_ id: WebhookEndpointID, by identity: Identity, logger: Logger) async throws {
        guard try await WebhookQueries.delete(id, scope: try StoreScope(managerOrAdmin: identity), on: database.client, logger: logger) else {
            throw WebhookError.endpointNotFound
        }
        logger.info("webhook endpoint deleted", metadata: ["endpoint": "\(id)", "by": "\(identity.userID)"])
    }

    package func deliveries(
        of id: WebhookEndpointID, by identity: Identity, limit: Int, cursor: String?, logger: Logger
    ) async throws -> Page<WebhookDelivery> {
        _ = try await endpoint(id, by: identity, logger: logger)
        return try await WebhookDeliveryQueries.list(endpoint: id, limit: limit, cursor: cursor, on: database.client, logger: logger)
    }

    /// Sends a finished delivery again, as soon as a dispatcher looks (the same `webhook-id`).
    package func redeliver(
        _ delivery: WebhookDeliveryID, of id: WebhookEndpointID, by identity: Identity, logger: Logger
    ) async throws -> WebhookDelivery {
        let scope = try StoreScope(managerOrAdmin: identity)
        return try await database.transaction(logger: logger) { connection in
            guard let endpoint = try await WebhookQueries.find(id, scope: scope, on: connection, logger: logger) else {
                throw WebhookError.endpointNotFound
            }
            guard endpoint.enabled else { throw WebhookError.endpointDisabled }
            guard let redone = try await WebhookDeliveryQueries.redeliver(delivery, endpoint: id, on: connection, logger: logger)
            else { throw WebhookError.deliveryNotFound }
            guard !redone.wasPending else { throw WebhookError.deliveryPending }
            return redone.0
        }
    }
}
