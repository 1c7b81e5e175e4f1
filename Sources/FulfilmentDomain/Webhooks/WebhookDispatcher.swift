import AsyncHTTPClient
import Foundation
import Logging
import NIOPosix
import ServiceLifecycle

/// Sends due deliveries: claim what there is room for (committed), send each on its own, record
/// each outcome in a transaction of its own. At least once, never the same attempt by two
/// instances at once (see `WebhookDeliveryQueries.claim`), and never more than
/// `settings.perEndpoint` attempts in flight to one endpoint over all instances (`sql/routines/claim_webhook_deliveries.sql`).
package struct WebhookDispatcher: Sendable {
    package let database: Database
    package let settings: WebhookDispatchSettings
    package let sender: WebhookSender

    /// Claims up to `room` due deliveries, leased to this instance.
    package func claim(room: Int, logger: Logger) async throws -> [ClaimedDelivery] {
        try await WebhookDeliveryQueries.claim(
            limit: room, lease: settings.lease, perEndpoint: settings.perEndpoint, on: database.client, logger: logger)
    }

    /// Sends one claimed delivery and records how it went; an attempt cut short by the shutdown
    /// is left unrecorded, so it is sent again after its lease.
    package func deliver(_ delivery: ClaimedDelivery, logger: Logger) async {
        let outcome = await sender.send(delivery)
        guard !Task.isCancelled else { return }
        if settings.recordDelay > .zero { try? await Task.sleep(for: settings.recordDelay) }
        do {
            try await record(outcome, of: delivery, logger: logger)
        } catch {
            // Unrecorded, it is sent again once its lease runs out: at least once.
            logger.warning(
                "webhook outcome not recorded; it will be sent again",
                metadata: [
                    "delivery": "\(delivery.id)", "error": "\(String(reflecting: error).prefix(200))",
                ])
        }
    }

    package func record(_ outcome: DeliveryOutcome, of delivery: ClaimedDelivery, logger: Logger) async throws {
        let metadata: Logger.Metadata = ["delivery": "\(delivery.id)", "endpoint": "\(delivery.endpoint)", "attempt": "\(delivery.attempt)"]
        switch outcome {
        case .succeeded(let code):
            try await database.transaction(logger: logger) { connection in
                try await WebhookDeliveryQueries.recordSuccess(delivery, code: code, on: connection, logger: logger)
            }
            logger.debug("webhook delivered", metadata: metadata)
        case .rejected, .unreachable:
            let (code, error) = Self.failure(outcome)
            let pause = settings.pause(afterAttempt: delivery.attempt)
            let disabled = try await database.transaction(logger: logger) { connection in
                try await WebhookDeliveryQueries.recordFailure(
                    delivery, code: code, error: error, pause: pause, disableAfter: settings.disableAfter,
                    on: connection, logger: logger)
            }
            logger.info(
                pause == nil ? "webhook delivery failed for good" : "webhook attempt failed; will retry",
                metadata: metadata.merging(["code": "\(code.map(String.init) ?? "-")"]) { $1 })
            if disabled { logger.notice("webhook endpoint disabled after failing too long", metadata: metadata) }
        }
    }

    /// The status and the `last_error` text of a failed attempt: the start of the response body
    /// (at most 500 characters), or why there was none.
    package static func failure(_ outcome: DeliveryOutcome) -> (Int?, String) {
        switch outcome {
        case .succeeded(let code): (code, "")
        case .rejected(let code, let excerpt):
            (code, "HTTP \(code)" + (excerpt.isEmpty ? "" : ": " + String(excerpt.prefix(500))))
        case .unreachable(let reason): (nil, reason)
        }
    }
}

/// Runs the dispatcher on this instance (every instance runs one) until the service shuts down.
///
/// It claims when a commit wrote events (`EventBus`), every `pollInterval`, and whenever an
/// attempt ends, as many deliveries as it has room for (`concurrency` in flight), and sends each
/// in a task of its own: no attempt waits for another, so a receiver that answers slowly holds
/// only its own lane (`perEndpoint` attempts, each ended by its deadline) while the others go on.
/// Each attempt has an `HTTPClient` of its own (`WebhookSender`); host names are resolved on
/// threads of the dispatcher's own. An attempt cut short by the shutdown is unrecorded and so
/// sent again after its lease, by this or another instance.
package struct WebhookDispatcherService: Service {
    package let database: Database
    package let settings: WebhookDispatchSettings
    /// Wakes the dispatcher when a commit wrote events (new deliveries go at once); the poll
    /// finds retries coming due and anything a missed notification left.
    package let bus: EventBus
    package let logger: Logger

    package init(database: Database, settings: WebhookDispatchSettings, bus: EventBus, logger: Logger) {
        self.database = database
        self.settings = settings
        self.bus = bus
        self.logger = logger
    }

    package func run() async throws {
        guard settings.sending else {
            try? await gracefulShutdown()
            return
        }
        let resolverThreads = NIOThreadPool(numberOfThreads: 4)
        resolverThreads.start()
        let resolver = HostResolver(pool: resolverThreads)
        let dispatcher = WebhookDispatcher(
            database: database, settings: settings,
            sender: WebhookSender(
                // An attempt never outlives its lease, after which another claim may send it again.
                eventLoopGroup: MultiThreadedEventLoopGroup.singleton, timeout: min(settings.timeout, settings.lease),
                responseLimit: settings.responseLimit,
                allowPrivate: settings.allowPrivate, lookUp: { try await resolver.lookUp($0) }))
        let wakes = bus.subscribeToAll()
        await cancelWhenGracefulShutdown {
            await ClaimLoop.run(
                concurrency: settings.concurrency, pollInterval: settings.pollInterval, wakes: wakes,
                claim: { room in try await dispatcher.claim(room: room, logger: logger) },
                claimFailed: { error in
                    logger.warning("webhook claim failed; trying again next time", metadata: ["error": "\(String(reflecting: error).prefix(200))"])
                },
                handle: { delivery in await dispatcher.deliver(delivery, logger: logger) })
        }
        try? await resolverThreads.shutdownGracefully()
    }
}
