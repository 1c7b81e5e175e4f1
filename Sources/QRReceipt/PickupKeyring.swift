import Crypto
import Foundation

/// All pickup-token signing keys: the newest signs, all of them verify.
///
/// On disk a keyring is a directory (mode 0700) holding one key file per key, named
/// `pickup-key-NNNNN.key` (the id, 5 digits) in the format described at ``PickupSigningKey``.
/// The key with the highest id is the current signing key, so rotating is a single atomic
/// file creation and rolling back is deleting the newest file. Deleting an old key file stops
/// trusting tokens signed with it. Other files in the directory are ignored.
public struct PickupKeyring: Sendable {
    /// Where the keys live, or `nil` for a keyring built in memory with ``init(keys:)``.
    public let directory: URL?
    /// Every key, ascending by id; never empty. The last one is ``current``.
    public private(set) var keys: [PickupSigningKey]

    static let fileExtension = "key"

    /// Builds an in-memory keyring, for example from a single configured key file.
    /// ``rotate()`` on it adds keys in memory only.
    /// - Throws: ``PickupKeyError/noKeys(directory:)`` for an empty list,
    ///   ``PickupKeyError/duplicateKeyID(_:)`` if two keys share an id.
    public init(keys: [PickupSigningKey]) throws(PickupKeyError) {
        try self.init(directory: nil, keys: keys)
    }

    private init(directory: URL?, keys: [PickupSigningKey]) throws(PickupKeyError) {
        guard !keys.isEmpty else { throw .noKeys(directory: directory?.path ?? "<memory>") }
        let sorted = keys.sorted { $0.id < $1.id }
        for (a, b) in zip(sorted, sorted.dropFirst()) where a.id == b.id {
            throw .duplicateKeyID(a.id)
        }
        self.directory = directory
        self.keys = sorted
    }

    /// The key that signs new tokens: the one with the highest id.
    public var current: PickupSigningKey { keys[keys.count - 1] }

    /// A signer using ``current``.
    public var signer: PickupTokenSigner {
        PickupTokenSigner(keyID: current.id, privateKey: current.privateKey)
    }

    /// A verifier trusting every key in the ring.
    public var verifier: PickupTokenVerifier {
        var trusted: [PickupKeyID: Curve25519.Signing.PublicKey] = [:]
        for key in keys { trusted[key.id] = key.privateKey.publicKey }
        return PickupTokenVerifier(trustedKeys: trusted)
    }

    /// The public keys, ascending by id, for publishing to offline scanners.
    public var publicKeys: [PickupPublicKey] { keys.map(\.publicKey) }

    /// The file name of the key with this id.
    public static func fileName(for id: PickupKeyID) -> String {
        let digits = String(id.rawValue)
        return "pickup-key-" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits + "." + fileExtension
    }

    /// Loads every `*.key` file in `directory`.
    /// - Throws: ``PickupKeyError``: no keys, a bad key file, duplicate ids, or a file system error.
    public static func load(from directory: URL) throws(PickupKeyError) -> PickupKeyring {
        var keys: [PickupSigningKey] = []
        for name in try keyFileNames(in: directory) {
            keys.append(try PickupSigningKey(contentsOf: directory.appendingPathComponent(name)))
        }
        return try PickupKeyring(directory: directory, keys: keys)
    }

    /// Creates `directory` (mode 0700, with parents) if needed and a first key with id 1.
    /// - Throws: ``PickupKeyError/keysAlreadyExist(directory:)`` if it already holds key files.
    public static func generate(in directory: URL) throws(PickupKeyError) -> PickupKeyring {
        try createDirectory(directory)
        guard try keyFileNames(in: directory).isEmpty else { throw .keysAlreadyExist(directory: directory.path) }
        let key = PickupSigningKey.generate(id: PickupKeyID(1))
        try key.write(to: directory.appendingPathComponent(fileName(for: key.id)))
        return try PickupKeyring(directory: directory, keys: [key])
    }

    /// Loads the keyring, or generates it when the directory is missing or has no key files (first run).
    /// - Throws: ``PickupKeyError`` if existing key files cannot be read; they are never replaced.
    public static func loadOrGenerate(in directory: URL) throws(PickupKeyError) -> PickupKeyring {
        if FileManager.default.fileExists(atPath: directory.path), try !keyFileNames(in: directory).isEmpty {
            return try load(from: directory)
        }
        return try generate(in: directory)
    }

    /// Adds a new key with the next id; it becomes ``current`` and the old keys stay trusted.
    ///
    /// With a ``directory``, the new key file is written first (mode 0600) and the keyring
    /// changes only if that succeeded. Other running processes see the new key when they reload.
    /// - Returns: the new key's id.
    /// - Throws: ``PickupKeyError/keyIDsExhausted`` or a file system error.
    @discardableResult
    public mutating func rotate() throws(PickupKeyError) -> PickupKeyID {
        guard current.id.rawValue < UInt16.max else { throw .keyIDsExhausted }
        let key = PickupSigningKey.generate(id: PickupKeyID(current.id.rawValue + 1))
        if let directory {
            try key.write(to: directory.appendingPathComponent(Self.fileName(for: key.id)))
        }
        keys.append(key)
        return key.id
    }

    private static func keyFileNames(in directory: URL) throws(PickupKeyError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasSuffix("." + fileExtension) }.sorted()
        } catch {
            throw .fileSystem(path: directory.path, message: "\(error)")
        }
    }

    private static func createDirectory(_ directory: URL) throws(PickupKeyError) {
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .fileSystem(path: directory.path, message: "\(error)")
        }
    }
}
