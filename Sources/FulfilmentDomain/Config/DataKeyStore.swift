import Foundation

/// The data keys a running instance holds, read again from their folder when a stored secret
/// names a key it does not hold yet: a rotation (`fulfilment keys rotate-data-key`) writes the
/// new key file before it seals any row with it, so an instance that shares the keys folder
/// finds it at its first use, with no restart and no polling.
package final class DataKeyStore: @unchecked Sendable {
    private let lock = NSLock()
    private var keyring: DataKeyring

    package init(_ keyring: DataKeyring) { self.keyring = keyring }

    package var current: DataKeyring { lock.withLock { keyring } }

    /// The key with this id; when it is not held, the folder is read again once. Nil when the
    /// folder does not have it either (or cannot be read: the keys held stay in use).
    package func key(_ id: Int) -> DataKey? {
        let held = current
        if let key = held.key(id) { return key }
        guard let directory = held.directory, let fresh = try? DataKeyring.load(from: directory) else { return nil }
        lock.withLock { keyring = fresh }
        return fresh.key(id)
    }
}
