import Logging
import ServiceLifecycle

/// Runs a sweep every `interval` on this instance until the service shuts down: the expiry of
/// uncollected orders, the late-risk announcements. Each sweep keeps its guarantee in the
/// database (a unique key, a row lock), so every instance may run it; a failed sweep (the
/// database away) is logged and tried again at the next tick, never ending the loop.
package struct PeriodicSweep: Service {
    /// What the log says failed ("expiry sweep").
    package let name: String
    package let interval: Duration
    package let logger: Logger
    package let sweep: @Sendable () async throws -> Void

    package init(_ name: String, every interval: Duration, logger: Logger, sweep: @escaping @Sendable () async throws -> Void) {
        self.name = name
        self.interval = interval
        self.logger = logger
        self.sweep = sweep
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled else { break }
                do {
                    try await sweep()
                } catch {
                    logger.warning(
                        "\(name) failed; trying again next time", metadata: ["error": "\(String(reflecting: error).prefix(200))"])
                }
            }
        }
    }
}
