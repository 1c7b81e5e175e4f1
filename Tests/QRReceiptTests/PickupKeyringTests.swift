import Crypto
import Foundation
import QRReceipt
import Testing

@Suite("Pickup keyring: key files, rotation")
struct PickupKeyringTests {
    func mode(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.posixPermissions] as! NSNumber).intValue & 0o777
    }

    @Test("generate creates the directory (0700) and key 1 in a 0600 file")
    func generate() throws {
        let directory = temporaryDirectory().appendingPathComponent("nested/keys")
        defer {
            try? FileManager.default.removeItem(at: directory.deletingLastPathComponent().deletingLastPathComponent())
        }
        let keyring = try PickupKeyring.generate(in: directory)
        #expect(keyring.current.id == PickupKeyID(1))
        #expect(keyring.keys.count == 1)
        let file = directory.appendingPathComponent("pickup-key-00001.key")
        #expect(try mode(file) == 0o600)
        #expect(try mode(directory) == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["pickup-key-00001.key"])
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains("format: fulfilment-pickup-key-1\n"))
        #expect(text.contains("key-id: 1\n"))
        #expect(text.contains("algorithm: ed25519\n"))
        #expect(text.contains("private-key: \(keyring.current.privateKey.rawRepresentation.base64EncodedString())\n"))

        #expect(throws: PickupKeyError.keysAlreadyExist(directory: directory.path)) {
            try PickupKeyring.generate(in: directory)
        }
        let loaded = try PickupKeyring.load(from: directory)
        #expect(loaded.current.privateKey.rawRepresentation == keyring.current.privateKey.rawRepresentation)
    }

    @Test("rotation: the new key signs, old tokens still verify, old verifiers reject new tokens")
    func rotation() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var keyring = try PickupKeyring.generate(in: directory)
        let oldVerifier = keyring.verifier
        let oldToken = try keyring.signer.sign(sampleClaims())
        #expect(oldToken.keyID == PickupKeyID(1))

        let newID = try keyring.rotate()
        #expect(newID == PickupKeyID(2))
        #expect(keyring.current.id == newID)
        #expect(keyring.signer.keyID == newID)
        #expect(try mode(directory.appendingPathComponent("pickup-key-00002.key")) == 0o600)

        let newToken = try keyring.signer.sign(sampleClaims())
        #expect(newToken.keyID == newID)
        #expect(try keyring.verifier.verify(oldToken.text, now: beforeExpiry).claims == sampleClaims())
        #expect(try keyring.verifier.verify(newToken.text, now: beforeExpiry).claims == sampleClaims())
        #expect(throws: PickupTokenError.unknownKeyID(newID)) {
            try oldVerifier.verify(newToken.text, now: beforeExpiry)
        }

        // Another process reloading the directory sees the same ring.
        let reloaded = try PickupKeyring.load(from: directory)
        #expect(reloaded.keys.map(\.id) == [PickupKeyID(1), PickupKeyID(2)])
        #expect(reloaded.signer.keyID == newID)
        #expect(try reloaded.verifier.verify(oldToken.text, now: beforeExpiry).keyID == PickupKeyID(1))
        #expect(reloaded.publicKeys == keyring.publicKeys)

        // Published public keys verify too (what offline scanners get).
        let published = try PickupTokenVerifier(publicKeys: reloaded.publicKeys)
        #expect(try published.verify(oldToken.text, now: beforeExpiry).keyID == PickupKeyID(1))
        #expect(try published.verify(newToken.text, now: beforeExpiry).keyID == newID)
        #expect(reloaded.publicKeys.map(\.rawRepresentation.count) == [32, 32])
        #expect(reloaded.publicKeys.map(\.id) == [PickupKeyID(1), PickupKeyID(2)])

        // Removing the old key file stops trusting its tokens.
        try FileManager.default.removeItem(at: directory.appendingPathComponent("pickup-key-00001.key"))
        let pruned = try PickupKeyring.load(from: directory)
        #expect(throws: PickupTokenError.unknownKeyID(PickupKeyID(1))) {
            try pruned.verifier.verify(oldToken.text, now: beforeExpiry)
        }
    }

    @Test("loadOrGenerate creates on first run and loads the same key afterwards")
    func loadOrGenerate() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try PickupKeyring.loadOrGenerate(in: directory)
        let second = try PickupKeyring.loadOrGenerate(in: directory)
        #expect(first.publicKeys == second.publicKeys)
        #expect(second.keys.count == 1)
    }

    @Test("loadOrGenerate never replaces a broken key file")
    func loadOrGenerateBroken() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("garbage\n".utf8).write(to: directory.appendingPathComponent("pickup-key-00005.key"))
        #expect(throws: PickupKeyError.self) { try PickupKeyring.loadOrGenerate(in: directory) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["pickup-key-00005.key"])
    }

    @Test("load errors: empty directory, missing directory, duplicate ids")
    func loadErrors() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: PickupKeyError.self) { try PickupKeyring.load(from: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("not a key".utf8).write(to: directory.appendingPathComponent("README.txt"))
        #expect(throws: PickupKeyError.noKeys(directory: directory.path)) { try PickupKeyring.load(from: directory) }

        let key = PickupSigningKey.generate(id: PickupKeyID(3))
        try key.write(to: directory.appendingPathComponent("a.key"))
        try key.write(to: directory.appendingPathComponent("b.key"))
        #expect(throws: PickupKeyError.duplicateKeyID(PickupKeyID(3))) { try PickupKeyring.load(from: directory) }
    }

    @Test("write never overwrites an existing file")
    func noOverwrite() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("k.key")
        let first = PickupSigningKey.generate(id: PickupKeyID(1))
        try first.write(to: url)
        #expect(throws: PickupKeyError.self) { try PickupSigningKey.generate(id: PickupKeyID(1)).write(to: url) }
        #expect(
            try PickupSigningKey(contentsOf: url).privateKey.rawRepresentation == first.privateKey.rawRepresentation)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["k.key"])
    }

    @Test("key file text round trips and malformed files are rejected")
    func keyFileFormat() throws {
        let key = PickupSigningKey(id: PickupKeyID(42), privateKey: fixedPrivateKey(7))
        let parsed = try PickupSigningKey(fileContents: key.fileContents)
        #expect(parsed.id == PickupKeyID(42))
        #expect(parsed.privateKey.rawRepresentation == key.privateKey.rawRepresentation)
        #expect(parsed.publicKey == key.publicKey)

        let good = key.fileContents
        let bad = [
            "",
            good.replacingOccurrences(of: "format: fulfilment-pickup-key-1", with: "format: other"),
            good.replacingOccurrences(of: "algorithm: ed25519", with: "algorithm: p256"),
            good.replacingOccurrences(of: "key-id: 42", with: "key-id: 70000"),
            good.replacingOccurrences(of: "key-id: 42", with: "key-id: x"),
            good.replacingOccurrences(of: "private-key: ", with: "private-key: AAAA"),
            good.replacingOccurrences(of: "private-key: ", with: "private-key: !"),
            good + "extra: 1\n",
            good + "key-id: 43\n",
            good + "no colon here\n",
        ]
        for text in bad {
            #expect(throws: PickupKeyError.self, "\(text)") { try PickupSigningKey(fileContents: text) }
        }
    }

    @Test("in-memory keyrings: empty and duplicate lists are rejected, rotate stays in memory")
    func inMemory() throws {
        #expect(throws: PickupKeyError.noKeys(directory: "<memory>")) { try PickupKeyring(keys: []) }
        let key = PickupSigningKey.generate(id: PickupKeyID(9))
        #expect(throws: PickupKeyError.duplicateKeyID(PickupKeyID(9))) { try PickupKeyring(keys: [key, key]) }
        var keyring = try PickupKeyring(keys: [key])
        #expect(keyring.directory == nil)
        #expect(try keyring.rotate() == PickupKeyID(10))
        #expect(keyring.keys.map(\.id) == [PickupKeyID(9), PickupKeyID(10)])

        var full = try PickupKeyring(keys: [PickupSigningKey.generate(id: PickupKeyID(UInt16.max))])
        #expect(throws: PickupKeyError.keyIDsExhausted) { try full.rotate() }
    }

    @Test("invalid published public keys are rejected")
    func invalidPublicKeys() {
        let bad = PickupPublicKey(id: PickupKeyID(1), rawRepresentation: Data([1, 2, 3]))
        #expect(throws: PickupKeyError.invalidPublicKey(PickupKeyID(1))) { try PickupTokenVerifier(publicKeys: [bad]) }
    }
}
