import ServiceLifecycle

/// Runs a background service once this instance's migrations have run (the application's
/// `beforeServerStarts`). The event bus, the webhook dispatcher and the expiry sweep start beside
/// the server; on a fresh database they used to query tables and functions not made yet, so every
/// first start logged warnings, and PostgreSQL errors, that an operator could only worry about.
package struct AfterMigrations<Base: Service>: Service {
    package let migrated: AsyncFlag
    package let base: Base

    package init(migrated: AsyncFlag, base: Base) {
        self.migrated = migrated
        self.base = base
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown { await migrated.wait() }
        // Shut down (or the migrations failed, which stops the application) before they ran.
        guard migrated.isSet, !Task.isCancelled else { return }
        try await base.run()
    }
}
