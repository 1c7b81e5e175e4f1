import Foundation
import Logging
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Webhook signing secrets encrypted at rest (issue 24, item 9): what a dump of the database
/// shows, what the partner still verifies, the rotation of the data key, a ciphertext moved to
/// another row, and a database upgraded from plain secrets.
@Suite("Webhooks: signing secrets encrypted at rest, the data key and its rotation")
struct WebhookSecretsAtRestTests {
    @Test("the endpoints table, read as a dump reads it, holds no trace of the secret; the delivery still verifies; nothing is logged")
    func dumpRevealsNoSecret() async throws {
        let logs = LogCapture()
        try await withWebhookReceiver { receiver in
            try await withApp(logHandler: logs, configure: { $0.quickWebhooks() }) { app in
                let store = try await app.createStore()
                let manager = try await app.signIn(role: .manager, store: store)
                let webhook = try await app.createWebhook(manager, url: receiver.url("/ok"))
                let secret = webhook["secret"].string!

                try await expectNoTrace(of: [secret], in: app.database)
                let row = try await sql(
                    "SELECT secret IS NULL, secret_key_id, length(secret_sealed) FROM webhook_endpoints WHERE id = $1",
                    [webhook["id"].string!], on: app.database)
                #expect(row == [["t", "1", "78"]], "plain column empty; key 1; nonce 12 + secret 50 + tag 16 bytes")

                _ = try await app.placeOrder(store: store)
                let hit = try await receiver.waitForHits(1, to: "/ok")[0]
                #expect(try await WebhookVerifiers.verifyWithStandardWebhooks(secret: secret, hit: hit))
                _ = try await app.waitForDelivery(of: webhook, by: manager, status: "succeeded")
                #expect(!logs.text.isEmpty)
                #expect(!logs.text.contains(secret))
                #expect(!logs.text.contains(String(secret.dropFirst(6))))
            }
        }
    }

    @Test("a ciphertext copied to another endpoint's row does not open: that delivery waits with a clear lastError, the other is sent")
    func ciphertextBoundToItsRow() async throws {
        try await withWebhookReceiver { receiver in
            try await withApp(configure: { $0.quickWebhooks() }) { app in
                let store = try await app.createStore()
                let manager = try await app.signIn(role: .manager, store: store)
                let kept = try await app.createWebhook(manager, url: receiver.url("/ok"))
                let moved = try await app.createWebhook(manager, url: receiver.url("/target"))
                // An attacker with write access to the table gives `moved` the sealed secret of `kept`.
                _ = try await sql(
                    """
                    UPDATE webhook_endpoints SET (secret_key_id, secret_sealed) =
                        (SELECT secret_key_id, secret_sealed FROM webhook_endpoints WHERE id = $1)
                    WHERE id = $2
                    """, [kept["id"].string!, moved["id"].string!], on: app.database)
                _ = try await app.placeOrder(store: store)

                let hit = try await receiver.waitForHits(1, to: "/ok")[0]
                #expect(try await WebhookVerifiers.verifyWithStandardWebhooks(secret: kept["secret"].string!, hit: hit))
                var waiting = JSONValue.null
                for _ in 0..<300 {
                    waiting = try await app.deliveries(of: moved, by: manager).first ?? .null
                    if waiting["lastError"].string != nil { break }
                    try await Task.sleep(for: .milliseconds(100))
                }
                #expect(waiting["status"].string == "pending")
                #expect(waiting["lastError"].string?.contains("does not decrypt with data key 1") == true, "\(waiting)")
                #expect(await receiver.hits(to: "/target").isEmpty, "nothing is sent, signed with another endpoint's secret")
                #expect(try await app.request(.get, "/healthz").status == .ok)
            }
        }
        // The same, in the type: the id of the endpoint is the associated data.
        let key = DataKeyring.processWide.current
        let sealed = try WebhookSecrets.seal("whsec_x", endpoint: WebhookEndpointID(UUID()), with: key)
        let other = WebhookEndpointID("00000000-0000-0000-0000-000000000001")!
        #expect(throws: WebhookSecretError.notOpened(keyID: key.id, endpoint: other)) {
            try WebhookSecrets.open(sealed, keyID: key.id, endpoint: other, keys: DataKeyStore(.processWide))
        }
    }

    @Test("keys rotate-data-key, while the service runs: every row under the new key, the old key file gone, deliveries verify")
    func rotation() async throws {
        try await withKeysFolder { folder in
            let keys = try DataKeyring.loadOrGenerate(in: folder)
            try await withWebhookReceiver { receiver in
                try await withApp(configure: {
                    $0.quickWebhooks()
                    $0.dataKeys = keys
                }) { app in
                    let store = try await app.createStore()
                    let manager = try await app.signIn(role: .manager, store: store)
                    let first = try await app.createWebhook(manager, url: receiver.url("/ok"))
                    let second = try await app.createWebhook(manager, url: receiver.url("/target"))

                    let rotated = try await ServiceProcess.run(
                        ["keys", "rotate-data-key", "--keys-dir", folder.path, "--database-url", Backup.conninfo(app.database)])
                    #expect(rotated.status == 0, "\(rotated.output)")
                    #expect(rotated.output.contains("Data key 2"))
                    let newKey = try String(contentsOf: folder.appendingPathComponent("data-key-00002.aes"), encoding: .utf8)
                        .split(separator: "\n").first { $0.hasPrefix("key: ") }!.dropFirst(5)
                    for never in [first["secret"].string!, second["secret"].string!, String(newKey)] {
                        #expect(!rotated.output.contains(never), "the command prints no secret and no key")
                    }
                    #expect(try keyFiles(folder) == ["data-key-00002.aes"])
                    #expect(try mode(folder.appendingPathComponent("data-key-00002.aes")) == 0o600)
                    #expect(
                        try await sql("SELECT DISTINCT secret_key_id, secret IS NULL FROM webhook_endpoints", on: app.database) == [["2", "t"]])
                    #expect(try await sql("SELECT id FROM data_keys", on: app.database) == [["2"]])
                    try await expectNoTrace(of: [first["secret"].string!, second["secret"].string!], in: app.database)

                    // The running service finds key 2 in the folder when it first meets it.
                    _ = try await app.placeOrder(store: store)
                    let hits = (try await receiver.waitForHits(1, to: "/ok")) + (try await receiver.waitForHits(1, to: "/target"))
                    #expect(try await WebhookVerifiers.verifyWithStandardWebhooks(secret: first["secret"].string!, hit: hits[0]))
                    #expect(try await WebhookVerifiers.verifyWithStandardWebhooks(secret: second["secret"].string!, hit: hits[1]))
                    // And seals new secrets under it.
                    let third = try await app.createWebhook(manager, url: receiver.url("/ok"))
                    #expect(
                        try await sql("SELECT secret_key_id FROM webhook_endpoints WHERE id = $1", [third["id"].string!], on: app.database)
                            == [["2"]])
                }
            }
        }
    }

    @Test("the data key file is made 0600 in a 0700 folder; one readable by others is refused, naming chmod 600")
    func dataKeyFileIsPrivate() async throws {
        try await withKeysFolder { folder in
            let made = try DataKeyring.loadOrGenerate(in: folder)
            let file = folder.appendingPathComponent("data-key-00001.aes")
            #expect(try mode(file) == 0o600)
            #expect(try DataKeyring.loadOrGenerate(in: folder).current.fingerprint == made.current.fingerprint, "made once, then read")
            chmod(file.path, 0o644)
            let error = #expect(throws: DataKeysError.self) { try DataKeyring.load(from: folder) }
            #expect(error?.description.contains("chmod 600 \(file.path)") == true)
        }
    }

    @Test("an instance holding another key 1 than the database's is refused at start, naming the file to copy")
    func foreignKeyRefused() async throws {
        try await withTestDatabase { database in
            let logger = Logger(label: "test")
            // A first start registers its key 1.
            try await WebhookSecretStorage.prepare(database, keys: DataKeyStore(.processWide), logger: logger)
            try await withKeysFolder { folder in
                let other = DataKeyStore(try DataKeyring.loadOrGenerate(in: folder))
                let error = await #expect(throws: DataKeysError.self) {
                    try await WebhookSecretStorage.prepare(database, keys: other, logger: logger)
                }
                #expect(error?.description.contains("data-key-00001.aes in \(folder.path) is not the key 1") == true, "\(String(describing: error))")
            }
        }
    }

    @Test("upgrade: a plain secret written as migration 021's schema had it is encrypted on start, and its deliveries verify")
    func upgradeEncryptsPlainSecrets() async throws {
        try await withWebhookReceiver { receiver in
            try await withTestDatabase(empty: true) { database in
                let before = try Migration.load(from: Migration.defaultDirectory).filter { $0.version <= 21 }
                try await Migrator(connection: database, migrations: before).migrate(logger: Logger(label: "test"))
                let secret = WebhookSigning.newSecret()
                _ = try await sql(
                    "INSERT INTO webhook_endpoints (store_id, url, secret) VALUES (NULL, $1, $2)", [receiver.url("/ok"), secret],
                    on: database)

                try await withApp(database: database, configure: { $0.quickWebhooks() }) { app in
                    try await expectNoTrace(of: [secret], in: app.database)
                    #expect(try await sql("SELECT secret_key_id FROM webhook_endpoints", on: app.database) == [["1"]])
                    let store = try await app.createStore()
                    _ = try await app.placeOrder(store: store)
                    let hit = try await receiver.waitForHits(1, to: "/ok")[0]
                    #expect(try await WebhookVerifiers.verifyWithStandardWebhooks(secret: secret, hit: hit))
                }
            }
        }
    }
}

/// Every column of every endpoint row as text (what `pg_dump` writes; bytea as hex) must hold
/// neither a secret nor its base64 payload, as text or as bytes.
private func expectNoTrace(of secrets: [String], in database: ConnectionInfo) async throws {
    let dump = try await sql("SELECT row_to_json(w)::text FROM webhook_endpoints w", on: database).map { $0[0] ?? "" }
        .joined(separator: "\n")
    #expect(!dump.isEmpty)
    #expect(!dump.contains("whsec_"))
    #expect(!dump.contains(Data("whsec_".utf8).hex))
    for secret in secrets {
        let payload = String(secret.dropFirst("whsec_".count))
        for trace in [payload, Data(payload.utf8).hex, Data(base64Encoded: payload)!.hex] {
            #expect(!dump.contains(trace))
        }
    }
}

private func withKeysFolder(_ body: (URL) async throws -> Void) async throws {
    let folder = URL(fileURLWithPath: "/tmp/fulfilment-data-keys-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    defer { try? FileManager.default.removeItem(at: folder) }
    try await body(folder)
}

private func keyFiles(_ folder: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("data-key-") }.sorted()
}

private func mode(_ url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return (attributes[.posixPermissions] as! NSNumber).intValue & 0o777
}
