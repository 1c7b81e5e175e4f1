import ArgumentParser
import Foundation
import Fulfilment
import FulfilmentDomain
import Logging
import QRReceipt

/// Manage the pickup-token signing keys. Prints public keys only; private keys stay in their files.
struct Keys: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage the pickup-token signing keys (Ed25519) and the data key of secrets at rest: generate, rotate, list.",
        discussion: """
            A keys directory (mode 0700) holds one private key file per key (mode 0600). The key \
            with the highest id signs new receipts; every key in the directory verifies. Running \
            services read the directory at start-up: restart them after a rotation. Beside them, \
            data-key-NNNNN.aes (mode 0600) encrypts webhook signing secrets in the database; \
            `rotate-data-key` replaces it while the services run.
            """,
        subcommands: [Generate.self, Rotate.self, List.self, RotateDataKey.self])

    /// `--dir` (or `--keys-dir`), else `FULFILMENT_KEYS_DIR`, else `.fulfilment/keys`.
    struct DirectoryOption: ParsableArguments {
        @Option(
            name: [.customLong("dir"), .customLong("keys-dir")],
            help: "Keys directory. Env: FULFILMENT_KEYS_DIR. Default: ./.fulfilment/keys")
        var dir: String?

        var url: URL {
            dir.map { URL(fileURLWithPath: $0) } ?? keysDirectoryFromEnvironment() ?? PickupKeys.defaultDirectory
        }
    }

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a keyring with its first signing key; print the public key. Refuses if keys exist.")
        @OptionGroup var directory: DirectoryOption

        func run() throws {
            let url = directory.url
            let keyring = try PickupKeys.generate(in: url)
            printWritten(keyring.current.id, in: url)
            printPublicKeys([keyring.current.publicKey])
            let dataKeys = try DataKeyring.loadOrGenerate(in: url)
            let file = url.appendingPathComponent(DataKeyring.fileName(for: dataKeys.current.id))
            print("Data key \(dataKeys.current.id) (encrypts webhook secrets at rest) is \(file.path) (mode 0600: keep it secret).")
        }
    }

    struct Rotate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a new signing key (old public keys stay trusted); print the new public key.")
        @OptionGroup var directory: DirectoryOption

        func run() throws {
            let url = directory.url
            var keyring = try PickupKeys.loadExisting(from: url)
            let id = try withKeyErrors { try keyring.rotate() }
            printWritten(id, in: url)
            let older = keyring.keys.dropLast().map(\.id.description)
            let stillTrusted = older.count == 1 ? "key \(older[0]) still verifies" : "keys \(older.joined(separator: ", ")) still verify"
            print("Key \(id) now signs new receipts (running services: after a restart); \(stillTrusted).")
            printPublicKeys([keyring.current.publicKey])
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print every key id and public key (never a private key); the last one signs.")
        @OptionGroup var directory: DirectoryOption

        func run() throws {
            let url = directory.url
            let keyring = try PickupKeys.loadExisting(from: url)
            printPublicKeys(keyring.publicKeys)
        }
    }
}

/// `fulfilment keys rotate-data-key`: a new data key for webhook secrets at rest, every secret
/// encrypted again under it in one transaction, then the older key files removed.
struct RotateDataKey: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate-data-key",
        abstract: "Encrypt every webhook signing secret under a new data key, then remove the old key files.",
        discussion: """
            The new key file is written first, so running services that share the keys directory \
            read it when they meet a secret encrypted with it (no restart); the secrets are \
            encrypted again in one transaction; the older data key files are removed after it \
            commits. A backup taken before the rotation needs the old key to give its secrets back: \
            take a new backup afterwards.
            """)
    @OptionGroup var directory: Keys.DirectoryOption
    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let url = directory.url
        let logger = makeLogger(level: .warning)
        let rotation = try await database.withDatabase(logger: logger) { connection in
            try await Migrator(connection: connection, migrations: try Migration.load(from: Migration.defaultDirectory)).migrate(logger: logger)
            return try await WebhookSecretStorage.rotate(connection, directory: url, logger: logger)
        }
        let file = url.appendingPathComponent(DataKeyring.fileName(for: rotation.keyID))
        print("Data key \(rotation.keyID) (\(file.path), mode 0600) now encrypts the secrets of \(rotation.endpoints) webhook endpoints.")
        if !rotation.removed.isEmpty {
            print("Removed the old data keys \(rotation.removed.map(String.init).joined(separator: ", ")): take a new backup.")
        }
    }
}

func keysDirectoryFromEnvironment() -> URL? {
    environment("FULFILMENT_KEYS_DIR").map { URL(fileURLWithPath: $0) }
}

/// One line per key: `<id> Ed25519 <base64 raw public key>`.
private func printPublicKeys(_ keys: [PickupPublicKey]) {
    print("key-id algorithm public-key")
    for key in keys {
        print("\(key.id) \(key.algorithm) \(key.base64)")
    }
}

/// Runs `body`, turning a ``PickupKeyError`` into one sentence for the operator.
private func withKeyErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as PickupKeyError {
        throw PickupKeysError(PickupKeys.sentence(for: error))
    }
}

/// Where a new private key went; the key itself is never printed.
private func printWritten(_ id: PickupKeyID, in directory: URL) {
    let file = directory.appendingPathComponent(PickupKeyring.fileName(for: id))
    print("Wrote pickup signing key \(id) to \(file.path) (mode 0600: keep it secret).")
}
