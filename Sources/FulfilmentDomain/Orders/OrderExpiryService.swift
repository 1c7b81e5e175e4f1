import Foundation
import Logging
import ServiceLifecycle

/// Runs `OrderExpiry.sweep` (and the collection reminders, `OrderExpiry.remind`) every `interval` on this instance with the real clock, until the
/// service shuts down. A failed sweep (the database away) is logged and tried at the next tick.
package struct OrderExpiryService: Service {
    package let expiry: OrderExpiry
    package let interval: Duration
    /// Anonymises orders past `FULFILMENT_RETENTION_DAYS` in the same sweep (issue 32); nil: off.
    package var retention: OrderRetention? = nil
    package let logger: Logger

    package init(expiry: OrderExpiry, interval: Duration, retention: OrderRetention? = nil, logger: Logger) {
        self.expiry = expiry
        self.interval = interval
        self.retention = retention
        self.logger = logger
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled else { break }
                do {
                    _ = try await expiry.sweep(now: Date(), logger: logger)
                    try await expiry.remind(logger: logger)
                    try await retention?.sweep(logger: logger)
                } catch {
                    logger.warning("expiry sweep failed; trying again next time", metadata: ["error": "\(String(reflecting: error).prefix(200))"])
                }
            }
        }
    }
}
