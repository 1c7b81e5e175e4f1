import Foundation
import QRReceipt

/// Where the service's pickup-token signing keys come from, and the operator-facing sentences
/// for everything that can go wrong with them. The keys themselves are ``PickupKeyring``.
public enum PickupKeys {
    /// `.fulfilment/keys`, beside the embedded cluster's default `.fulfilment/postgres`.
    public static let defaultDirectory = URL(fileURLWithPath: ".fulfilment/keys")

    /// The keyring `fulfilment serve` signs with.
    ///
    /// - A configured `directory` must already hold keys (it is never created here).
    /// - Otherwise `defaultDirectory` (normally ``defaultDirectory``) is used: on the embedded
    ///   database it is created on first run; with an external database (`embeddedDatabase ==
    ///   false`) it must already hold keys, so several instances never sign with keys of their own.
    /// - Throws: ``PickupKeysError`` whose description is one sentence naming the fix.
    public static func forService(
        directory: URL?, embeddedDatabase: Bool, defaultDirectory: URL = PickupKeys.defaultDirectory
    ) throws(PickupKeysError) -> PickupKeyring {
        guard let directory else {
            if embeddedDatabase {
                if hasKeyFiles(defaultDirectory) { return try loadExisting(from: defaultDirectory) }
                return try generate(in: defaultDirectory)
            }
            guard hasKeyFiles(defaultDirectory) else {
                throw PickupKeysError(
                    "No pickup signing keys in \(defaultDirectory.path): run `fulfilment keys generate` once (or "
                        + "point --keys-dir / FULFILMENT_KEYS_DIR at the keys every instance shares).")
            }
            return try loadExisting(from: defaultDirectory)
        }
        return try loadExisting(from: directory)
    }

    /// Loads the keys in `directory`, which must already hold some.
    /// - Throws: ``PickupKeysError``; for a missing or empty directory it says to run `fulfilment keys generate`.
    public static func loadExisting(from directory: URL) throws(PickupKeysError) -> PickupKeyring {
        guard hasKeyFiles(directory) else {
            throw PickupKeysError(
                "No pickup signing keys in \(directory.path): run `fulfilment keys generate --dir \(directory.path)` first.")
        }
        try refuseReadableByOthers(directory)
        do {
            return try PickupKeyring.load(from: directory)
        } catch {
            throw PickupKeysError(sentence(for: error))
        }
    }

    /// A private key another user can read could sign receipts for any order: such a file is
    /// refused, with the command that fixes it.
    package static func refuseReadableByOthers(_ directory: URL) throws(PickupKeysError) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names.sorted() where name.hasSuffix(".key") {
            let path = directory.appendingPathComponent(name).path
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            let mode = info.st_mode & 0o777
            guard mode & 0o077 == 0 else {
                throw PickupKeysError(
                    "The pickup key file \(path) can be read by other users (mode \(String(mode, radix: 8))): "
                        + "run `chmod 600 \(path)` and start again.")
            }
        }
    }

    /// Creates a keyring with its first key in `directory` (mode 0700, key file 0600).
    ///
    /// Unlike ``PickupKeyring/generate(in:)`` alone, folders above `directory` are created with
    /// the default mode, not 0700, so a shared parent such as `.fulfilment` stays reachable for
    /// the embedded cluster's `postgres` user; only the keys directory itself is private.
    /// - Throws: ``PickupKeysError``, also when keys already exist there.
    public static func generate(in directory: URL) throws(PickupKeysError) -> PickupKeyring {
        let parent = directory.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw PickupKeysError("Cannot create \(parent.path) for the pickup keys: \(error.localizedDescription)")
        }
        do {
            return try PickupKeyring.generate(in: directory)
        } catch {
            throw PickupKeysError(sentence(for: error))
        }
    }

    /// One sentence for an operator describing `error`; never contains key material.
    public static func sentence(for error: PickupKeyError) -> String {
        switch error {
        case .invalidKeyFile(let path, let reason):
            "The pickup key file \(path) is not valid (\(reason))."
        case .noKeys(let directory):
            "No pickup signing keys in \(directory): run `fulfilment keys generate --dir \(directory)` first."
        case .keysAlreadyExist(let directory):
            "Pickup signing keys already exist in \(directory): use `fulfilment keys rotate --dir \(directory)` to add one."
        case .duplicateKeyID(let id):
            "Two pickup key files have key id \(id): remove one of them."
        case .keyIDsExhausted:
            "Pickup key id 65535 is in use: no key id is left for a new key."
        case .invalidPublicKey(let id):
            "Public key \(id) is not a valid Ed25519 public key."
        case .fileSystem(let path, let message):
            "Cannot use the pickup keys at \(path): \(message)."
        }
    }

    private static func hasKeyFiles(_ directory: URL) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.contains { $0.hasSuffix(".key") }
    }
}

/// The pickup keys could not be set up; ``description`` is one sentence for the operator.
public struct PickupKeysError: Error, CustomStringConvertible, Equatable {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
