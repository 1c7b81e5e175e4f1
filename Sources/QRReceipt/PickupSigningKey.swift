import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One pickup-token signing key (Ed25519 private key) and its id, as stored in a key file.
///
/// Key file format (UTF-8 text, one `name: value` per line, `#` starts a comment line):
///
/// ```
/// # fulfilment pickup-token signing key. SECRET: keep this file private (mode 0600).
/// format: fulfilment-pickup-key-1
/// key-id: 1
/// algorithm: ed25519
/// private-key: <base64 of the 32-byte raw Ed25519 private key (seed)>
/// ```
///
/// All four fields are required; unknown fields are rejected. Files are created with mode
/// 0600 and never overwritten.
public struct PickupSigningKey: Sendable {
    /// The id written into tokens signed with this key.
    public let id: PickupKeyID
    /// The secret key. Never log it.
    public let privateKey: Curve25519.Signing.PrivateKey

    static let formatName = "fulfilment-pickup-key-1"

    /// Wraps an existing private key.
    public init(id: PickupKeyID, privateKey: Curve25519.Signing.PrivateKey) {
        self.id = id
        self.privateKey = privateKey
    }

    /// Creates a new random key with the given id.
    public static func generate(id: PickupKeyID) -> PickupSigningKey {
        PickupSigningKey(id: id, privateKey: Curve25519.Signing.PrivateKey())
    }

    /// The public half, safe to publish.
    public var publicKey: PickupPublicKey {
        PickupPublicKey(id: id, rawRepresentation: privateKey.publicKey.rawRepresentation)
    }

    /// The key file text (see the type's documentation). Contains the secret.
    public var fileContents: String {
        """
        # fulfilment pickup-token signing key. SECRET: keep this file private (mode 0600).
        format: \(Self.formatName)
        key-id: \(id.rawValue)
        algorithm: ed25519
        private-key: \(privateKey.rawRepresentation.base64EncodedString())

        """
    }

    /// Parses key file text; `path` is only used in error messages.
    /// - Throws: ``PickupKeyError/invalidKeyFile(path:reason:)``.
    public init(fileContents: String, path: String = "<memory>") throws(PickupKeyError) {
        func invalid(_ reason: String) -> PickupKeyError { .invalidKeyFile(path: path, reason: reason) }
        var fields: [String: String] = [:]
        for rawLine in fileContents.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let colon = line.firstIndex(of: ":") else { throw invalid("line without ':'") }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard ["format", "key-id", "algorithm", "private-key"].contains(name) else {
                throw invalid("unknown field '\(name)'")
            }
            guard fields.updateValue(value, forKey: name) == nil else { throw invalid("field '\(name)' repeated") }
        }
        guard fields["format"] == Self.formatName else { throw invalid("format is not \(Self.formatName)") }
        guard fields["algorithm"] == "ed25519" else { throw invalid("algorithm is not ed25519") }
        guard let idText = fields["key-id"], let id = UInt16(idText) else {
            throw invalid("key-id is missing or not a number 0...65535")
        }
        guard let keyText = fields["private-key"], let raw = Data(base64Encoded: keyText), raw.count == 32,
            let privateKey = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw)
        else { throw invalid("private-key is missing or not 32 bytes of base64") }
        self.init(id: PickupKeyID(id), privateKey: privateKey)
    }

    /// Reads a key file.
    /// - Throws: ``PickupKeyError/fileSystem(path:message:)`` or ``PickupKeyError/invalidKeyFile(path:reason:)``.
    public init(contentsOf url: URL) throws(PickupKeyError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .fileSystem(path: url.path, message: "\(error)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .invalidKeyFile(path: url.path, reason: "not UTF-8 text")
        }
        try self.init(fileContents: text, path: url.path)
    }

    /// Writes the key file at `url` with mode 0600, atomically; never replaces an existing file
    /// (``PrivateFile/createNew(at:bytes:)``). The parent directory must exist.
    /// - Throws: ``PickupKeyError/fileSystem(path:message:)``, also when `url` already exists.
    public func write(to url: URL) throws(PickupKeyError) {
        do {
            try PrivateFile.createNew(at: url, bytes: Array(fileContents.utf8))
        } catch {
            throw .fileSystem(path: error.path, message: error.message)
        }
    }
}

/// A public key for verifying pickup tokens, with its id: what is published to scanners.
public struct PickupPublicKey: Sendable, Hashable {
    /// The id tokens carry when signed with the matching private key.
    public let id: PickupKeyID
    /// The 32-byte raw Ed25519 public key.
    public let rawRepresentation: Data

    /// Wraps raw public key bytes; they are validated when a verifier is built from them.
    public init(id: PickupKeyID, rawRepresentation: Data) {
        self.id = id
        self.rawRepresentation = rawRepresentation
    }

    /// Standard base64 of ``rawRepresentation``.
    public var base64: String { rawRepresentation.base64EncodedString() }

    /// Always `"Ed25519"`; for published key lists.
    public var algorithm: String { "Ed25519" }
}

extension PickupTokenVerifier {
    /// Creates a verifier trusting these published public keys.
    /// - Throws: ``PickupKeyError/invalidPublicKey(_:)`` or ``PickupKeyError/duplicateKeyID(_:)``.
    public init(publicKeys: [PickupPublicKey]) throws(PickupKeyError) {
        var trusted: [PickupKeyID: Curve25519.Signing.PublicKey] = [:]
        for key in publicKeys {
            guard let publicKey = try? Curve25519.Signing.PublicKey(rawRepresentation: key.rawRepresentation) else {
                throw .invalidPublicKey(key.id)
            }
            guard trusted.updateValue(publicKey, forKey: key.id) == nil else { throw .duplicateKeyID(key.id) }
        }
        self.init(trustedKeys: trusted)
    }
}
