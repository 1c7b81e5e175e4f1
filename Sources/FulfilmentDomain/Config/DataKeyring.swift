import Crypto
import Foundation
import QRReceipt

/// One AES-256-GCM key that encrypts secrets kept in the database (webhook signing secrets), and
/// its id, which is stored beside every ciphertext it made.
///
/// Key file `data-key-NNNNN.aes` in the keys folder (mode 0600, never overwritten):
///
/// ```
/// # fulfilment data key: encrypts webhook signing secrets at rest. SECRET: keep this file private (mode 0600).
/// format: fulfilment-data-key-1
/// key-id: 1
/// algorithm: aes-256-gcm
/// key: <base64 of 32 random bytes>
/// ```
public struct DataKey: Sendable {
    /// 1 to 65535; the highest in a keyring encrypts.
    public let id: Int
    /// Never log it.
    package let key: SymmetricKey

    package static let formatName = "fulfilment-data-key-1"

    package static func generate(id: Int) -> DataKey {
        DataKey(id: id, key: SymmetricKey(size: .bits256))
    }

    /// HMAC-SHA256 of a fixed label under this key: the database keeps it (`data_keys`) so an
    /// instance holding another key under the same id is refused at start, without the database
    /// ever holding the key.
    package var fingerprint: Data {
        Data(HMAC<SHA256>.authenticationCode(for: Data("fulfilment data key fingerprint".utf8), using: key))
    }

    /// AES-GCM: a random nonce, the ciphertext and the tag, in one blob. `context` is the
    /// associated data: authenticated, not stored, so the blob opens only with the same context.
    package func seal(_ plaintext: Data, context: Data) throws -> Data {
        guard let combined = try AES.GCM.seal(plaintext, using: key, authenticating: context).combined else {
            throw CryptoKitError.incorrectParameterSize
        }
        return combined
    }

    /// Opens what ``seal(_:context:)`` made with the same `context`; throws for any other blob.
    package func open(_ sealed: Data, context: Data) throws -> Data {
        try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: key, authenticating: context)
    }

    package var fileContents: String {
        """
        # fulfilment data key: encrypts webhook signing secrets at rest. SECRET: keep this file private (mode 0600).
        format: \(Self.formatName)
        key-id: \(id)
        algorithm: aes-256-gcm
        key: \(key.withUnsafeBytes { Data($0) }.base64EncodedString())

        """
    }

    package init(id: Int, key: SymmetricKey) {
        self.id = id
        self.key = key
    }

    /// Parses a key file; `path` names it in errors, which never hold key material.
    package init(fileContents: String, path: String) throws(DataKeysError) {
        func invalid(_ reason: String) -> DataKeysError { DataKeysError("The data key file \(path) is not valid (\(reason)).") }
        var fields: [String: String] = [:]
        for rawLine in fileContents.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let colon = line.firstIndex(of: ":") else { throw invalid("a line without ':'") }
            fields[line[..<colon].trimmingCharacters(in: .whitespaces)] = line[line.index(after: colon)...]
                .trimmingCharacters(in: .whitespaces)
        }
        guard fields["format"] == Self.formatName, fields["algorithm"] == "aes-256-gcm" else {
            throw invalid("format or algorithm is not \(Self.formatName), aes-256-gcm")
        }
        guard let id = fields["key-id"].flatMap({ Int($0) }), (1...65535).contains(id) else {
            throw invalid("key-id is missing or not 1...65535")
        }
        guard let raw = fields["key"].flatMap({ Data(base64Encoded: $0) }), raw.count == 32 else {
            throw invalid("key is missing or not 32 bytes of base64")
        }
        self.init(id: id, key: SymmetricKey(data: raw))
    }
}

/// Every data key an instance holds: the newest (highest id) encrypts, each decrypts what it
/// encrypted. On disk, `data-key-NNNNN.aes` files in the keys folder beside the pickup keys.
public struct DataKeyring: Sendable {
    /// Where the keys live, or nil for an in-memory keyring.
    public let directory: URL?
    /// Ascending by id; never empty.
    public private(set) var keys: [DataKey]

    /// The key that encrypts new secrets.
    public var current: DataKey { keys[keys.count - 1] }

    package func key(_ id: Int) -> DataKey? { keys.first { $0.id == id } }

    /// One random key, kept in memory, shared by every application this process builds: the
    /// default of ``AppConfiguration/dataKeys`` for tests and tools; `fulfilment serve` always
    /// uses the keys folder's.
    public static let processWide = DataKeyring(directory: nil, keys: [DataKey.generate(id: 1)])

    /// The file name of the key with this id.
    public static func fileName(for id: Int) -> String {
        let digits = String(id)
        return "data-key-" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits + ".aes"
    }

    /// The keys in `directory`, or, when it holds none, a first key made there (mode 0600), as
    /// `fulfilment serve` does on its first start. Two instances starting at once on one folder
    /// agree: the file is never replaced, so the second loads the first one's key.
    /// - Throws: ``DataKeysError``: a missing folder, a bad or readable-by-others key file.
    public static func loadOrGenerate(in directory: URL) throws(DataKeysError) -> DataKeyring {
        if try !fileNames(in: directory).isEmpty { return try load(from: directory) }
        let key = DataKey.generate(id: 1)
        do {
            try PrivateFile.createNew(at: directory.appendingPathComponent(fileName(for: key.id)), bytes: Array(key.fileContents.utf8))
        } catch  where error.code == EEXIST {
            return try load(from: directory)
        } catch {
            throw DataKeysError("Cannot write a data key to \(error.path): \(error.message).")
        }
        return try load(from: directory)
    }

    /// Every `data-key-*.aes` file in `directory`; there must be at least one.
    public static func load(from directory: URL) throws(DataKeysError) -> DataKeyring {
        var keys: [DataKey] = []
        for name in try fileNames(in: directory) {
            let path = directory.appendingPathComponent(name).path
            var info = stat()
            guard stat(path, &info) == 0 else { throw DataKeysError("Cannot read the data key file \(path).") }
            guard info.st_mode & 0o077 == 0 else {
                throw DataKeysError(
                    "The data key file \(path) can be read by other users (mode \(String(info.st_mode & 0o777, radix: 8))): "
                        + "run `chmod 600 \(path)` and start again.")
            }
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw DataKeysError("Cannot read the data key file \(path).")
            }
            keys.append(try DataKey(fileContents: text, path: path))
        }
        guard !keys.isEmpty else { throw DataKeysError("No data key in \(directory.path).") }
        keys.sort { $0.id < $1.id }
        for (a, b) in zip(keys, keys.dropFirst()) where a.id == b.id {
            throw DataKeysError("Two data key files in \(directory.path) have key id \(a.id): remove one of them.")
        }
        return DataKeyring(directory: directory, keys: keys)
    }

    /// Adds a key with the next id, written to its file first (mode 0600); it becomes ``current``.
    package mutating func addKey() throws(DataKeysError) -> DataKey {
        guard current.id < 65535 else { throw DataKeysError("Data key id 65535 is in use: no key id is left for a new key.") }
        let key = DataKey.generate(id: current.id + 1)
        if let directory {
            do {
                try PrivateFile.createNew(at: directory.appendingPathComponent(Self.fileName(for: key.id)), bytes: Array(key.fileContents.utf8))
            } catch {
                throw DataKeysError("Cannot write a data key to \(error.path): \(error.message).")
            }
        }
        keys.append(key)
        return key
    }

    /// Deletes the files (and forgets the keys) of every key older than `id`.
    package mutating func removeKeys(olderThan id: Int) throws(DataKeysError) {
        for key in keys where key.id < id {
            if let directory {
                let path = directory.appendingPathComponent(Self.fileName(for: key.id)).path
                guard unlink(path) == 0 || errno == ENOENT else {
                    throw DataKeysError("Cannot remove the old data key file \(path): \(String(cString: strerror(errno))).")
                }
            }
        }
        keys.removeAll { $0.id < id }
    }

    package init(directory: URL?, keys: [DataKey]) {
        self.directory = directory
        self.keys = keys
    }

    private static func fileNames(in directory: URL) throws(DataKeysError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasPrefix("data-key-") && $0.hasSuffix(".aes") }.sorted()
        } catch {
            throw DataKeysError("Cannot read the keys folder \(directory.path): \(error.localizedDescription).")
        }
    }
}

/// The data keys could not be used; ``description`` is one sentence for the operator, naming the
/// fix, never holding key material.
public struct DataKeysError: Error, CustomStringConvertible, Equatable {
    public var description: String

    public init(_ description: String) { self.description = description }
}
