import AsyncHTTPClient
import Foundation
import Logging
import NIOPosix
import ServiceLifecycle

/// Sends due deliveries: claim a batch (committed), send them concurrently, record each outcome
/// in a transaction of its own. At least once, never the same attempt by two instances at once
/// (see `WebhookDeliveryQueries.claim`).
struct WebhookDispatcher: Sendable {
    let database: Database
    let settings: WebhookDispatchSettings
    let sender: WebhookSender

    /// One claim and its sends; returns how many were claimed (a full batch: more may be due).
    func round(logger: Logger) async throws -> Int {
        let claimed = try await WebhookDeliveryQueries.claim(
            limit: settings.batchSize, lease: settings.lease, on: database.client, logger: logger)
        await withTaskGroup(of: Void.self) { group in
            for delivery in claimed {
                group.addTask { await deliver(delivery, logger: logger) }
            }
        }
        return claimed.count
    }

    private func deliver(_ delivery: ClaimedDelivery, logger: Logger) async {
        let outcome = await sender.send(delivery)
        if settings.recordDelay > .zero { try? await Task.sleep(for: settings.recordDelay) }
        do {
            try await record(outcome, of: delivery, logger: logger)
        } catch {
            // Unrecorded, it is sent again once its lease runs out: at least once.
            logger.warning("webhook outcome not recorded; it will be sent again", metadata: [
                "delivery": "\(delivery.id)", "error": "\(String(reflecting: error).prefix(200))",
            ])
        }
    }

    func record(_ outcome: DeliveryOutcome, of delivery: ClaimedDelivery, logger: Logger) async throws {
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
            logger.info(pause == nil ? "webhook delivery failed for good" : "webhook attempt failed; will retry",
                metadata: metadata.merging(["code": "\(code.map(String.init) ?? "-")"]) { $1 })
            if disabled { logger.notice("webhook endpoint disabled after failing too long", metadata: metadata) }
        }
    }

    /// The status and the `last_error` text of a failed attempt: the start of the response body
    /// (at most 500 characters), or why there was none.
    static func failure(_ outcome: DeliveryOutcome) -> (Int?, String) {
        switch outcome {
        case .succeeded(let code): (code, "")
        case .rejected(let code, let excerpt):
            (code, "HTTP \(code)" + (excerpt.isEmpty ? "" : ": " + String(excerpt.prefix(500))))
        case .unreachable(let reason): (nil, reason)
        }
    }
}

/// Runs the dispatcher on this instance (every instance runs one) until the service shuts down:
/// a round when a commit wrote events (`EventBus`) and every `pollInterval`, at once again while
/// rounds come back full. It owns the
/// instance's one `HTTPClient`, shut down when it stops. An attempt cut short by the shutdown
/// is unrecorded and so sent again after its lease, by this or another instance.
struct WebhookDispatcherService: Service {
    let database: Database
    let settings: WebhookDispatchSettings
    /// Wakes the dispatcher when a commit wrote events (new deliveries go at once); the poll
    /// finds retries coming due and anything a missed notification left.
    let bus: EventBus
    let logger: Logger

    func run() async throws {
        guard settings.sending else {
            try? await gracefulShutdown()
            return
        }
        let client = HTTPClient(
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
            configuration: WebhookSender.clientConfiguration(timeout: settings.timeout))
        let dispatcher = WebhookDispatcher(
            database: database, settings: settings,
            sender: WebhookSender(client: client, timeout: settings.timeout, responseLimit: settings.responseLimit))
        let wakes = bus.subscribeToAll()
        let (signals, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await _ in wakes { signal.yield() }
                }
                group.addTask {
                    while !Task.isCancelled {
                        signal.yield()
                        try? await Task.sleep(for: settings.pollInterval)
                    }
                    signal.finish()
                }
                for await _ in signals {
                    guard !Task.isCancelled else { break }
                    while !Task.isCancelled {
                        do {
                            if try await dispatcher.round(logger: logger) < settings.batchSize { break }
                        } catch {
                            logger.warning("webhook round failed; trying again next time", metadata: ["error": "\(String(reflecting: error).prefix(200))"])
                            break
                        }
                    }
                }
                group.cancelAll()
            }
        }
        try await client.shutdown()
    }
}
