import Foundation
import Logging
import QRReceipt
import ServiceLifecycle
import UnixSignals

/// The keyring the service signs and verifies with, replaced whole when its directory changes,
/// so a key rotation needs no restart. Readers take the keyring of the moment; a request signs
/// and verifies with one consistent keyring.
package final class KeyringStore: @unchecked Sendable {
    private let lock = NSLock()
    private var keyring: PickupKeyring

    package init(_ keyring: PickupKeyring) { self.keyring = keyring }

    package var current: PickupKeyring { lock.withLock { keyring } }

    /// Reads the keys directory again. A directory that no longer loads (a broken or
    /// world-readable key file) keeps the keyring in use and says why: the service never stops
    /// signing because of a bad edit.
    @discardableResult
    package func reload(logger: Logger) -> Bool {
        guard let directory = current.directory else { return false }
        do {
            let fresh = try PickupKeys.loadExisting(from: directory)
            let (before, after) = lock.withLock { () -> (PickupKeyID, PickupKeyID) in
                defer { keyring = fresh }
                return (keyring.current.id, fresh.current.id)
            }
            logger.notice(
                "pickup keys reloaded", metadata: ["keys": "\(fresh.keys.count)", "signingKeyID": "\(after)", "was": "\(before)"])
            return true
        } catch {
            logger.error("pickup keys not reloaded; still using the keys loaded before", metadata: ["reason": "\(error)"])
            return false
        }
    }
}

/// Reloads the keyring on `SIGHUP`, and whenever the key files in its directory change (so
/// `fulfilment keys rotate` reaches every running instance that shares the directory).
package struct KeyringWatcher: Service {
    package let store: KeyringStore
    package let logger: Logger
    package var pollInterval: Duration = .seconds(5)

    package init(store: KeyringStore, logger: Logger, pollInterval: Duration = .seconds(5)) {
        self.store = store
        self.logger = logger
        self.pollInterval = pollInterval
    }

    package func run() async throws {
        // A service that returns ends the whole application: with nothing to watch (an
        // in-memory keyring), wait for the shutdown like the others.
        guard let directory = store.current.directory else { return try await gracefulShutdown() }
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await _ in await UnixSignalsSequence(trapping: .sighup) { store.reload(logger: logger) }
                }
                group.addTask {
                    var seen = Self.fingerprint(directory)
                    while !Task.isCancelled {
                        try? await Task.sleep(for: pollInterval)
                        let now = Self.fingerprint(directory)
                        if now != seen, store.reload(logger: logger) { seen = now }
                    }
                }
                await group.next()
                group.cancelAll()
            }
        }
    }

    /// The key files' names, sizes and modification times: what a rotation changes.
    package static func fingerprint(_ directory: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".key") }.sorted().map { name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)
            let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            return "\(name) \(attributes?[.size] ?? 0) \(modified)"
        }
    }
}
