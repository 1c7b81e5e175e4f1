import Foundation
import QRReceipt
import TestSupport
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("Pickup keys: published for offline scanners, configured for the service, managed by the CLI")
struct PickupKeysTests {
    // MARK: GET /v1/pickup-keys

    @Test("GET /v1/pickup-keys lists the keyring's public keys, without a session")
    func publishesPublicKeys() async throws {
        try await withApp { app in
            let reply = try await app.request(.get, "/v1/pickup-keys")
            #expect(reply.status == .ok)
            let items = reply.json["items"].array
            #expect(items.count == 1)
            #expect(items[0]["keyId"].string == "1")
            #expect(items[0]["algorithm"].string == "Ed25519")
            #expect(items[0]["publicKey"].string == app.keyring.current.publicKey.base64)
            guard case .object(let body) = reply.json else {
                Issue.record("not a JSON object: \(reply.text)")
                return
            }
            #expect(body.keys.sorted() == ["items", "nextCursor"])
            #expect(body["nextCursor"] == .null, "present and null, as the contract requires")
            #expect(!reply.text.contains(app.keyring.current.privateKey.rawRepresentation.base64EncodedString()))
        }
    }

    @Test("a token signed by the service's signer verifies with only the published keys")
    func publishedKeysVerifyServiceTokens() async throws {
        try await withApp { app in
            let verifier = try publishedVerifier(try await app.request(.get, "/v1/pickup-keys"))
            let token = try app.keyring.signer.sign(claims)
            #expect(try verifier.verify(token.text, now: beforeExpiry).claims == claims)

            let stranger = try PickupKeyring(keys: [PickupSigningKey.generate(id: PickupKeyID(1))])
            #expect(throws: PickupTokenError.badSignature) {
                try verifier.verify(try stranger.signer.sign(claims).text, now: beforeExpiry)
            }
        }
    }

    @Test("after a rotation both keys are published; old and new tokens verify")
    func rotationPublishesBothKeys() async throws {
        var keyring = try PickupKeyring(keys: [PickupSigningKey.generate(id: PickupKeyID(1))])
        let oldToken = try keyring.signer.sign(claims)
        try keyring.rotate()
        try await withApp(keyring: keyring) { app in
            let reply = try await app.request(.get, "/v1/pickup-keys")
            #expect(reply.json["items"].array.compactMap { $0["keyId"].string } == ["1", "2"])
            let verifier = try publishedVerifier(reply)
            let newToken = try app.keyring.signer.sign(claims)
            #expect(newToken.keyID == PickupKeyID(2))
            #expect(try verifier.verify(oldToken.text, now: beforeExpiry).keyID == PickupKeyID(1))
            #expect(try verifier.verify(newToken.text, now: beforeExpiry).keyID == PickupKeyID(2))
        }
    }

    // MARK: Service configuration

    @Test("embedded database, no keys dir: generated in the default dir on first run, reused after")
    func embeddedFirstRun() throws {
        try withTemporaryDirectory { root in
            let defaultDirectory = root.appendingPathComponent("fulfilment/keys")
            let first = try PickupKeys.forService(directory: nil, embeddedDatabase: true, defaultDirectory: defaultDirectory)
            #expect(try mode(defaultDirectory.appendingPathComponent("pickup-key-00001.key")) == 0o600)
            #expect(try mode(defaultDirectory) == 0o700)
            // The shared parent (`.fulfilment`, also home of the embedded cluster) keeps the default mode.
            let plain = root.appendingPathComponent("plain")
            try FileManager.default.createDirectory(at: plain, withIntermediateDirectories: false)
            #expect(try mode(defaultDirectory.deletingLastPathComponent()) == mode(plain))
            let second = try PickupKeys.forService(directory: nil, embeddedDatabase: true, defaultDirectory: defaultDirectory)
            #expect(second.publicKeys == first.publicKeys)
        }
    }

    @Test("external database without keys: start-up stops with one sentence naming `fulfilment keys generate`")
    func externalDatabaseNeedsKeys() throws {
        try withTemporaryDirectory { root in
            let defaultDirectory = root.appendingPathComponent("keys")
            let error = #expect(throws: PickupKeysError.self) {
                try PickupKeys.forService(directory: nil, embeddedDatabase: false, defaultDirectory: defaultDirectory)
            }
            #expect(error?.description.contains("run `fulfilment keys generate`") == true)
            #expect(!FileManager.default.fileExists(atPath: defaultDirectory.path), "nothing is created")

            let configured = root.appendingPathComponent("configured")
            let explicit = #expect(throws: PickupKeysError.self) {
                try PickupKeys.forService(directory: configured, embeddedDatabase: true, defaultDirectory: defaultDirectory)
            }
            #expect(explicit?.description.contains("fulfilment keys generate --dir \(configured.path)") == true)

            let generated = try PickupKeyring.generate(in: configured)
            let loaded = try PickupKeys.forService(directory: configured, embeddedDatabase: false, defaultDirectory: defaultDirectory)
            #expect(loaded.publicKeys == generated.publicKeys)
        }
    }

    // MARK: fulfilment keys (the built binary)

    @Test("keys generate writes a 0600 key file and prints only its public key; a second generate refuses")
    func cliGenerate() throws {
        try withTemporaryDirectory { root in
            let dir = root.appendingPathComponent("keys")
            let generated = try runCLI(["keys", "generate", "--dir", dir.path])
            #expect(generated.status == 0, "\(generated.stderr)")
            let file = dir.appendingPathComponent("pickup-key-00001.key")
            #expect(try mode(file) == 0o600)
            #expect(try mode(dir) == 0o700)
            let key = try PickupSigningKey(contentsOf: file)
            #expect(generated.stdout.contains("1 Ed25519 \(key.publicKey.base64)\n"))
            #expect(!generated.stdout.contains(key.privateKey.rawRepresentation.base64EncodedString()))

            let again = try runCLI(["keys", "generate", "--dir", dir.path])
            #expect(again.status != 0)
            #expect(again.stderr.contains("already exist"))
            #expect(try PickupSigningKey(contentsOf: file).publicKey == key.publicKey, "the key is not replaced")
        }
    }

    @Test("keys rotate adds key 2 and keeps key 1; keys list (dir from FULFILMENT_KEYS_DIR) prints both public keys")
    func cliRotateAndList() throws {
        try withTemporaryDirectory { root in
            let dir = root.appendingPathComponent("keys")
            #expect(try runCLI(["keys", "generate", "--dir", dir.path]).status == 0)
            let rotated = try runCLI(["keys", "rotate", "--dir", dir.path])
            #expect(rotated.status == 0, "\(rotated.stderr)")
            #expect(try mode(dir.appendingPathComponent("pickup-key-00002.key")) == 0o600)
            let keyring = try PickupKeyring.load(from: dir)
            #expect(keyring.keys.map(\.id) == [PickupKeyID(1), PickupKeyID(2)])
            #expect(rotated.stdout.contains("2 Ed25519 \(keyring.publicKeys[1].base64)\n"))

            let listed = try runCLI(["keys", "list"], environment: ["FULFILMENT_KEYS_DIR": dir.path])
            #expect(listed.status == 0, "\(listed.stderr)")
            for key in keyring.keys {
                #expect(listed.stdout.contains("\(key.id) Ed25519 \(key.publicKey.base64)\n"))
                #expect(!listed.stdout.contains(key.privateKey.rawRepresentation.base64EncodedString()))
                #expect(!rotated.stdout.contains(key.privateKey.rawRepresentation.base64EncodedString()))
            }
        }
    }

    @Test("keys rotate and list on a directory without keys fail, naming keys generate")
    func cliWithoutKeys() throws {
        try withTemporaryDirectory { root in
            let dir = root.appendingPathComponent("none")
            for command in ["rotate", "list"] {
                let reply = try runCLI(["keys", command, "--dir", dir.path])
                #expect(reply.status != 0)
                #expect(reply.stderr.contains("fulfilment keys generate"), "\(reply.stderr)")
            }
        }
    }
}

// MARK: Helpers

private let claims = PickupToken.Claims(
    orderID: UUID(uuidString: "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0")!, storeNumber: 7, expiry: 2_000_000_000)
private let beforeExpiry = Date(timeIntervalSince1970: 1_900_000_000)

/// A verifier built from nothing but a `GET /v1/pickup-keys` reply, as an offline scanner would.
private func publishedVerifier(_ reply: TestReply) throws -> PickupTokenVerifier {
    let keys = try reply.json["items"].array.map { item in
        let id = try #require(item["keyId"].string.flatMap(UInt16.init))
        let raw = try #require(item["publicKey"].string.flatMap { Data(base64Encoded: $0) })
        #expect(raw.count == 32)
        return PickupPublicKey(id: PickupKeyID(id), rawRepresentation: raw)
    }
    return try PickupTokenVerifier(publicKeys: keys)
}

private func mode(_ url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return (attributes[.posixPermissions] as! NSNumber).intValue & 0o777
}

private func withTemporaryDirectory(_ body: (URL) throws -> Void) throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("pickup-keys-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    try body(url)
}

/// Runs the built `fulfilment` binary (next to the test bundle) and collects its output.
private func runCLI(_ arguments: [String], environment extra: [String: String] = [:]) throws -> (
    status: Int32, stdout: String, stderr: String
) {
    var environment: [String: String?] = ["FULFILMENT_KEYS_DIR": nil]
    for (name, value) in extra { environment[name] = value }
    let ran = try Subprocess.run(try fulfilmentBinary().path, arguments, environment: environment) as Subprocess.Outcome
    return (ran.status, ran.output, ran.errors)
}

private func fulfilmentBinary() throws -> URL {
    let candidates = [
        Bundle.main.executableURL?.deletingLastPathComponent(),
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        URL(fileURLWithPath: ".build/debug"),
    ].compactMap { $0?.appendingPathComponent("fulfilment") }
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
        throw TestSetupError("The fulfilment binary is not built (looked at \(candidates.map(\.path))): run `swift build --build-tests`.")
    }
    return found
}
