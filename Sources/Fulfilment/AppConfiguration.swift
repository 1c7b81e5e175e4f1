import Foundation
import FulfilmentDomain
import Logging
import QRReceipt

/// Everything the service needs to start, resolved from options and the environment by
/// the `fulfilment` command (or built directly by tests).
public struct AppConfiguration: Sendable {
    public var host: String
    public var port: Int
    public var database: ConnectionInfo
    /// The pickup-token keys: the newest signs receipts, all are published and verify. Never log it.
    public var keyring: PickupKeyring
    /// The data keys that encrypt webhook signing secrets at rest (`data-key-*.aes` in the keys
    /// folder, which `fulfilment serve` loads, or makes on first start). The default, for tests
    /// and tools that build the application in memory, is one key per process. Never log it.
    public var dataKeys: DataKeyring = .processWide
    public var migrationsDirectory: URL
    public var logLevel: Logger.Level
    /// bcrypt cost for new password hashes: 12 unless `FULFILMENT_BCRYPT_COST` says otherwise
    /// (tests use the minimum, 4, to stay fast).
    public var bcryptCost: UInt8 = AppConfiguration.defaultBcryptCost
    /// The secret shared with the payment provider that signs `POST /v1/payments/webhook`
    /// (`FULFILMENT_WEBHOOK_SECRET`); without one the webhook answers 503. Never log it.
    public var webhookSecret: String? = ProcessInfo.processInfo.environment["FULFILMENT_WEBHOOK_SECRET"].flatMap { $0.isEmpty ? nil : $0 }

    /// How often a running service looks for changed key files (`FULFILMENT_KEYS_POLL_SECONDS`,
    /// default 5; `SIGHUP` reloads at once). Only for a keyring loaded from a directory.
    public var keysPollInterval: Duration = .seconds(
        EnvironmentSetting.integer("FULFILMENT_KEYS_POLL_SECONDS", clampedTo: 1...Int.max) ?? 5)
    /// How often this instance looks for uncollected orders to cancel (`FULFILMENT_EXPIRY_SECONDS`,
    /// default 60, 1 to 3600). Every instance sweeps; the database keeps them from doing an
    /// order twice (see `OrderExpiry`).
    public var expiryInterval: Duration = .seconds(
        EnvironmentSetting.integer("FULFILMENT_EXPIRY_SECONDS", clampedTo: 1...3600) ?? 60)
    /// How often a live event stream sends a comment line when nothing happens
    /// (`FULFILMENT_EVENT_HEARTBEAT_SECONDS`, default 15, 1 to 300): proxies keep the connection,
    /// and a client that went away is noticed by the next write.
    public var eventHeartbeat: Duration = .seconds(
        EnvironmentSetting.integer("FULFILMENT_EVENT_HEARTBEAT_SECONDS", clampedTo: 1...300) ?? 15)
    /// The most live event streams one session may have open at once, across every instance
    /// (`FULFILMENT_EVENT_STREAMS_PER_SESSION`, default 5, 1 to 100); one more is `429`.
    public var eventStreamsPerSession: Int = EnvironmentSetting.integer("FULFILMENT_EVENT_STREAMS_PER_SESSION", clampedTo: 1...100) ?? 5
    /// How the webhook dispatcher every instance runs retries, leases and gives up
    /// (`FULFILMENT_WEBHOOK_RETRY_SCHEDULE`, `FULFILMENT_WEBHOOK_LEASE_SECONDS`,
    /// `FULFILMENT_WEBHOOK_DISABLE_AFTER_SECONDS`, `FULFILMENT_WEBHOOK_POLL_MS`,
    /// `FULFILMENT_WEBHOOK_ALLOW_PRIVATE`, and the test-only fault hook
    /// `FULFILMENT_WEBHOOK_RECORD_DELAY_MS`; see `WebhookDispatchSettings`).
    var webhookDispatch: WebhookDispatchSettings = .from(environment: ProcessInfo.processInfo.environment)
    /// How many bcrypt hashes run and wait at once (`FULFILMENT_BCRYPT_SLOTS`, `FULFILMENT_BCRYPT_WAITING`;
    /// one running per core and eight waiting per core unless set). Beyond that, sign-in answers 429 `busy`.
    public var bcryptQueue: BcryptQueue.Limits = .from(environment: ProcessInfo.processInfo.environment)
    /// Idle and absolute session lifetimes (`FULFILMENT_SESSION_IDLE_MINUTES`, default 720;
    /// `FULFILMENT_SESSION_MAX_HOURS`, default 720).
    public var sessionLifetime: SessionLifetime = .from(environment: ProcessInfo.processInfo.environment)
    /// Failed sign-ins allowed per account, per client address and per both (see `LoginThrottle`).
    public var loginThrottle = LoginThrottle()

    /// The reverse proxies whose `X-Forwarded-For` names the client (`FULFILMENT_TRUSTED_PROXIES`:
    /// CIDRs, none by default); see `TrustedProxies`. The service refuses to start with an entry
    /// that is no CIDR.
    /// Days a collected or cancelled order stays with its customer before the expiry sweep
    /// anonymises it (`FULFILMENT_RETENTION_DAYS`, 1 to 36,500; unset: never). Issue 32.
    public var retentionDays: Int? = EnvironmentSetting.integer("FULFILMENT_RETENTION_DAYS", clampedTo: OrderRetention.dayRange)

    public var trustedProxies = TrustedProxies(parsing: ProcessInfo.processInfo.environment["FULFILMENT_TRUSTED_PROXIES"] ?? "")

    /// When set (`FULFILMENT_METRICS_TOKEN`), `GET /metrics` needs `Authorization: Bearer <it>`. Never log it.
    public var metricsToken: String? = ProcessInfo.processInfo.environment["FULFILMENT_METRICS_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
    /// Whether the console's session cookie is marked `Secure`: set `FULFILMENT_SECURE_COOKIES=1`
    /// when browsers reach the service over HTTPS (a TLS proxy in front), so the cookie never
    /// travels in clear. Off by default because `make run` serves plain HTTP on loopback.
    public var secureCookies: Bool = ["1", "true", "yes"].contains(
        ProcessInfo.processInfo.environment["FULFILMENT_SECURE_COOKIES"]?.lowercased() ?? "")

    /// Sign-in with identity providers (issue 33): the workforce provider, the public address,
    /// providers from the environment (`ProviderSignInSettings.from(environment:)`, which
    /// `fulfilment serve` reads).
    public var providerSignIn = ProviderSignInSettings()
    /// How mail is sent (issue 44): the SMTP server, the sender, retries (`MailSettings.from(environment:)`,
    /// which `fulfilment serve` reads). The default sends nothing: messages are kept for the Mail page.
    package var mail = MailSettings()
    /// The chain's name, logo and colour on the pages (issue 45): `FULFILMENT_BRAND_*`.
    package var brand = Brand.standard
    /// The request head timeout and open connections per client (`ConnectionLimits`).
    public var connectionLimits = ConnectionLimits.fromEnvironment()

    /// What time it is: the lead time and horizon of pickup slots are measured from it. Tests
    /// set a fixed moment so slot rules do not depend on when they run.
    public var clock: @Sendable () -> Date = { Date() }

    public static var defaultBcryptCost: UInt8 {
        ProcessInfo.processInfo.environment["FULFILMENT_BCRYPT_COST"].flatMap { UInt8($0) }.map { min(max($0, 4), 31) } ?? 12
    }

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        database: ConnectionInfo,
        keyring: PickupKeyring,
        migrationsDirectory: URL = Migration.defaultDirectory,
        logLevel: Logger.Level = .info
    ) {
        self.host = host
        self.port = port
        self.database = database
        self.keyring = keyring
        self.migrationsDirectory = migrationsDirectory
        self.logLevel = logLevel
    }
}
