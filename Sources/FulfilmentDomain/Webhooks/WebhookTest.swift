import Foundation
import Logging
import NIOPosix

/// A test message to one endpoint, sent now from the request that asked (issue 46): the console's
/// "Send a test" and `POST /v1/webhooks/{id}/test`. It is signed with the endpoint's secret and
/// goes through the same sender as a delivery (addresses checked at send, no redirects, one
/// deadline), so a receiver that verifies it will verify real events; it is not an event, so no
/// other endpoint and no live stream sees it, and nothing is recorded.
extension Webhooks {
    /// The type a test message carries (not one an endpoint subscribes to).
    package static let testEventType = "webhook.test"

    /// How a test went, as the console and the API show it.
    package struct TestOutcome: Sendable, Equatable {
        package var delivered: Bool
        /// The receiver's status, when it answered.
        package var responseCode: Int?
        /// Why it failed, secret-free: the start of a refusal's body, or why nothing answered.
        package var error: String?
    }

    /// Resolves test sends' host names on a thread of their own, as the dispatcher does on its
    /// pool: a slow DNS server holds neither an event loop nor a shared thread.
    private static let resolverThreads: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        return pool
    }()

    package func sendTest(_ id: WebhookEndpointID, by identity: Identity, now: Date = Date(), logger: Logger) async throws -> TestOutcome {
        let scope = try StoreScope(managerOrAdmin: identity)
        guard let stored = try await WebhookQueries.secret(of: id, scope: scope, on: database.client, logger: logger) else {
            throw WebhookError.endpointNotFound
        }
        let secret: String
        if let plain = stored.plain {
            secret = plain
        } else {
            do {
                secret = try WebhookSecrets.open(stored.sealed, keyID: stored.keyID, endpoint: id, keys: dataKeys)
            } catch {
                logger.error("webhook secret not decrypted for a test", metadata: ["endpoint": "\(id)", "reason": "\(error)"])
                throw WebhookError.noDataKey
            }
        }
        let resolver = HostResolver(pool: Self.resolverThreads)
        let sender = WebhookSender(
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton, timeout: .seconds(10), responseLimit: 300,
            allowPrivate: allowPrivateAddresses, lookUp: { try await resolver.lookUp($0) })
        let message = EventID(UUID())
        let outcome = await sender.send(
            ClaimedDelivery(
                id: WebhookDeliveryID(UUID()), endpoint: id, eventID: message, attempt: 1, url: stored.url, secret: secret,
                body: Self.testBody(id: message, endpoint: id, store: stored.store, at: now)),
            now: now)
        logger.info("webhook test sent", metadata: ["endpoint": "\(id)", "by": "\(identity.userID)"])
        switch outcome {
        case .succeeded(let code): return TestOutcome(delivered: true, responseCode: code, error: nil)
        case .rejected(let code, let excerpt): return TestOutcome(delivered: false, responseCode: code, error: excerpt.isEmpty ? nil : excerpt)
        case .unreachable(let reason): return TestOutcome(delivered: false, responseCode: nil, error: reason)
        }
    }

    /// The test message in the envelope every event is sent in (`event_json`), with no sequence:
    /// it is in no store's stream.
    static func testBody(id: EventID, endpoint: WebhookEndpointID, store: StoreID?, at now: Date) -> String {
        var envelope: [String: Any] = [
            "id": id.description, "type": testEventType, "timestamp": ISO8601DateFormatter().string(from: now),
            "data": ["endpointId": endpoint.description, "message": "A test from the store console: this endpoint receives and verifies events."],
        ]
        if let store { envelope["storeId"] = store.description }
        let data = (try? JSONSerialization.data(withJSONObject: envelope, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// Replaces the endpoint's secret with a new one, returned here only: every attempt from now
    /// on is signed with it (one in flight may still carry the old signature). For a secret that
    /// leaked, or a receiver that lost it.
    package func rotateSecret(_ id: WebhookEndpointID, by identity: Identity, logger: Logger) async throws -> (WebhookEndpoint, secret: String) {
        let scope = try StoreScope(managerOrAdmin: identity)
        let secret = WebhookSigning.newSecret()
        let endpoint = try await database.transaction(logger: logger) { connection in
            let key = try await WebhookSecretStorage.writingKey(on: connection, keys: dataKeys, logger: logger)
            guard
                let endpoint = try await WebhookQueries.replaceSecret(
                    id, scope: scope, sealed: try WebhookSecrets.seal(secret, endpoint: id, with: key), keyID: key.id, on: connection,
                    logger: logger)
            else { throw WebhookError.endpointNotFound }
            return endpoint
        }
        logger.info("webhook secret rotated", metadata: ["endpoint": "\(id)", "by": "\(identity.userID)"])
        return (endpoint, secret)
    }
}
