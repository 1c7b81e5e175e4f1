import Foundation
import FulfilmentDomain
import FulfilmentHandlers
import FulfilmentPages
import Hummingbird
import Logging
import PostgresNIO
import QRReceipt

/// Builds the application the `fulfilment serve` command runs; tests build the very same.
///
/// The PostgreSQL client runs as one of the application's services; pending migrations are
/// applied before the server starts accepting requests.
public func buildApplication(_ configuration: AppConfiguration, logger: Logger) async throws -> some ApplicationProtocol {
    let migrations = try Migration.load(from: configuration.migrationsDirectory)
    let database = try Database(connection: configuration.database, logger: logger)
    var accounts = Accounts(
        database: database, hasher: PasswordHasher(cost: configuration.bcryptCost, queue: BcryptQueue(limits: configuration.bcryptQueue)),
        throttle: configuration.loginThrottle, sessionLifetime: configuration.sessionLifetime)
    accounts.workforceIssuer = configuration.providerSignIn.workforceIssuer
    let keys = KeyringStore(configuration.keyring)
    let dataKeys = DataKeyStore(configuration.dataKeys)
    let health = DatabaseHealth()
    let bus = EventBus(database: database, logger: logger)
    let events = EventStream(
        database: database, bus: bus, heartbeat: configuration.eventHeartbeat, lifetime: configuration.sessionLifetime,
        perSession: configuration.eventStreamsPerSession)
    guard configuration.trustedProxies.invalid.isEmpty else {
        throw ConfigurationError(
            "FULFILMENT_TRUSTED_PROXIES: \(configuration.trustedProxies.invalid.joined(separator: ", ")) is not an address or CIDR block (such as 10.0.0.0/8)"
        )
    }
    let metrics = MetricsEndpoint(token: configuration.metricsToken, host: configuration.host)
    if metrics.access == .off {
        logger.notice(
            "GET /metrics is off: the service listens on \(configuration.host), beyond this machine, and FULFILMENT_METRICS_TOKEN is not set; set it to serve the metrics to Authorization: Bearer <token>"
        )
    }
    // Where links in messages point: the public address, else the one this instance listens at.
    let baseURL =
        configuration.mail.publicURL ?? configuration.providerSignIn.publicURL
        ?? "http://\(configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host):\(configuration.port)"
    let mail = Mail(database: database, settings: configuration.mail, dataKeys: dataKeys, baseURL: baseURL)
    let router = try buildRouter(
        database: database, migrations: migrations, keys: keys, accounts: accounts, events: events,
        dataKeys: dataKeys, webhookSecret: configuration.webhookSecret, health: health, metrics: metrics,
        trustedProxies: configuration.trustedProxies, secureCookies: configuration.secureCookies, clock: configuration.clock,
        webhookAllowPrivate: configuration.webhookDispatch.allowPrivate, providerSettings: configuration.providerSignIn, mail: mail,
        brand: configuration.brand)
    let migrated = AsyncFlag()
    let expiry = OrderExpiry(database: database)
    let retention = configuration.retentionDays.map { OrderRetention(database: database, days: $0) }
    let lateRisk = LateRisk(database: database)
    let clock = configuration.clock
    var app = Application(
        router: router,
        server: configuration.connectionLimits.server(logger: logger),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "fulfilment"),
        services: [
            database, KeyringWatcher(store: keys, logger: logger, pollInterval: configuration.keysPollInterval),
            DatabaseProbe(connection: configuration.database, health: health, logger: logger, router: database.router),
            AfterMigrations(
                migrated: migrated,
                base: PeriodicSweep("expiry sweep", every: configuration.expiryInterval, logger: logger) {
                    // The uncollected-order deadline, the collection reminders and, when configured, the retention of
                    // ended orders (issue 32) share one tick.
                    _ = try await expiry.sweep(now: Date(), logger: logger)
                    try await expiry.remind(logger: logger)
                    try await retention?.sweep(logger: logger)
                }),
            AfterMigrations(
                migrated: migrated,
                base: PeriodicSweep("late-risk sweep", every: configuration.expiryInterval, logger: logger) {
                    try await lateRisk.sweep(now: clock(), logger: logger)
                }),
            AfterMigrations(migrated: migrated, base: bus),
            AfterMigrations(
                migrated: migrated,
                base: DataKeysInScope(
                    keys: dataKeys,
                    base: WebhookDispatcherService(database: database, settings: configuration.webhookDispatch, bus: bus, logger: logger))),
            AfterMigrations(migrated: migrated, base: MailSenderService(mail: mail, bus: bus, logger: logger)),
        ],
        logger: logger
    )
    app.beforeServerStarts {
        try await Migrator(connection: configuration.database, migrations: migrations).migrate(logger: logger)
        try await WebhookSecretStorage.prepare(configuration.database, keys: dataKeys, logger: logger)
        for provider in configuration.providerSignIn.providers {
            _ = try await IdentityProviderQueries.save(provider, on: database.client, logger: logger)
        }
        migrated.set(true)
    }
    return app
}

func buildRouter(
    database: Database, migrations: [Migration], keys: KeyringStore, accounts: Accounts, events: EventStream,
    dataKeys: DataKeyStore = DataKeyStore(.processWide), webhookSecret: String? = nil,
    health: DatabaseHealth = DatabaseHealth(), metrics: MetricsEndpoint = MetricsEndpoint(token: nil, host: "127.0.0.1"),
    trustedProxies: TrustedProxies = .none, secureCookies: Bool = false,
    clock: @escaping @Sendable () -> Date = { Date() }, webhookAllowPrivate: Bool = false,
    providerSettings: ProviderSignInSettings = ProviderSignInSettings(), mail: Mail? = nil, brand: Brand = .standard
) throws -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: PageBrandMiddleware(brand: brand))
    router.get("/brand.css") { _, _ in PageBrand.stylesheet() }
    ServiceMetrics.bootstrap()
    router.add(middleware: RequestScopeMiddleware())
    router.add(middleware: MetricsMiddleware())
    router.add(middleware: ErrorMiddleware())
    router.add(middleware: PageNotFoundMiddleware(sessions: accounts.sessions))
    router.add(middleware: RequestShapeMiddleware(routes: ContractRoutes(yaml: String(decoding: OpenAPIDocument.yaml, as: UTF8.self))))
    router.add(
        middleware: DatabaseAvailabilityMiddleware(
            health: health,
            failover: database.connection.isMultiHost ? .init(router: database.router, deadline: Database.failoverDeadline) : nil))
    router.add(middleware: NullFieldMiddleware())
    router.add(middleware: ClientAddressMiddleware(trustedProxies: trustedProxies))
    router.add(middleware: CharsetMiddleware())
    router.add(middleware: ResponseHeadersMiddleware())
    router.get("/metrics") { request, _ in try metrics.response(for: request) }
    router.get("/openapi.yaml") { _, _ in
        Response(
            status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: OpenAPIDocument.yaml)))
    }
    // The domain services, built once and shared by both front doors.
    let services = Services(
        database: database, migrations: migrations, accounts: accounts, events: events, keys: keys, dataKeys: dataKeys, clock: clock,
        webhookAllowPrivate: webhookAllowPrivate, providerSettings: providerSettings,
        mail: mail ?? Mail(database: database, settings: MailSettings(), dataKeys: dataKeys, baseURL: "http://127.0.0.1:8080"))
    let access = AccessMiddleware(database: database, sessionLifetime: accounts.sessionLifetime)
    // The API: every operation of the contract, behind the access table.
    try API(services: services).register(
        on: router, middlewares: [access, WebhookSignatureMiddleware(secret: webhookSecret), ExportMiddleware(database: database)])
    // The pages: each controller's routes, mounted beside the API.
    router.addRoutes(AccountController(services: services, secureCookies: secureCookies).endpoints)
    router.addRoutes(ConsoleController(services: services, secureCookies: secureCookies).endpoints)
    router.addRoutes(ShopController(services: services, secureCookies: secureCookies).endpoints)
    return router
}
