import ArgumentParser
import Foundation
import Fulfilment
import FulfilmentDomain
import Hummingbird
import Logging

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the HTTP service (applies pending migrations first). Stops cleanly on SIGINT/SIGTERM.")

    @Option(help: "Address to listen on. Env: FULFILMENT_HOST. Default: 127.0.0.1")
    var host: String?

    @Option(help: "Port to listen on. Env: PORT. Default: 8080")
    var port: Int?

    @Flag(help: "Load the demo store when the database has no stores yet (what `make run` does).")
    var demo = false

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical. Env: LOG_LEVEL. Default: info")
    var logLevel: String?

    @Option(
        name: .customLong("keys-dir"),
        help: """
            Pickup signing keys directory (`fulfilment keys generate`). Env: FULFILMENT_KEYS_DIR. \
            Default: ./.fulfilment/keys, created on first run with the embedded database.
            """)
    var keysDir: String?

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel ?? environment("LOG_LEVEL") ?? "info") ?? .info
        let logger = makeLogger(level: level)
        let host = host ?? environment("FULFILMENT_HOST") ?? "127.0.0.1"
        let port = port ?? environment("PORT").flatMap(Int.init) ?? 8080
        let keyring = try PickupKeys.forService(
            directory: keysDir.map { URL(fileURLWithPath: $0) } ?? keysDirectoryFromEnvironment(),
            embeddedDatabase: database.explicitConnection == nil)
        logger.info(
            "pickup keys loaded",
            metadata: [
                "dir": "\(keyring.directory?.path ?? "-")", "signingKeyID": "\(keyring.current.id)",
                "keys": "\(keyring.keys.count)",
            ])
        // Beside the pickup keys: the data key that encrypts webhook secrets at rest, made on first start.
        let dataKeys = try DataKeyring.loadOrGenerate(in: keyring.directory ?? PickupKeys.defaultDirectory)
        logger.info("data keys loaded", metadata: ["dataKeyID": "\(dataKeys.current.id)", "dataKeys": "\(dataKeys.keys.count)"])
        if database.explicitConnection == nil { DiskSpace.warnIfNearlyFull(database.resolvedDataDir, logger: logger) }
        try await database.withDatabase(logger: logger, supervised: true) { connection in
            var configuration = AppConfiguration(host: host, port: port, database: connection, keyring: keyring, logLevel: level)
            configuration.dataKeys = dataKeys
            configuration.providerSignIn = try ProviderSignInSettings.from(environment: ProcessInfo.processInfo.environment)
            configuration.mail = try MailSettings.from(environment: ProcessInfo.processInfo.environment)
            configuration.brand = try Brand.from(environment: ProcessInfo.processInfo.environment)
            if demo {
                try await Migrator(connection: connection, migrations: try Migration.load(from: configuration.migrationsDirectory))
                    .migrate(logger: logger)
                try await seedDemo(connection: connection, signer: keyring.signer, logger: logger)
            }
            let app = try await buildApplication(configuration, logger: logger)
            announce("Fulfilment is starting at http://\(host):\(port) — API contract: http://\(host):\(port)/openapi.yaml, readiness: /readyz")
            announce("The web shop: open http://\(host):\(port)/shop (customers: sign up there, or sign in at http://\(host):\(port)/)")
            announce("The store console: open http://\(host):\(port)/ and sign in (staff: the desk, orders and pick lists; managers: stock too)")
            if configuration.mail.smtp == nil {
                announce("Mail is kept, not sent (no FULFILMENT_SMTP_URL): read it at http://\(host):\(port)/console/mail as a manager or admin")
            }
            try await app.runService()
        }
    }
}
