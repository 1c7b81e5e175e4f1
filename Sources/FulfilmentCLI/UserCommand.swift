import ArgumentParser
import Foundation
import Fulfilment
import FulfilmentDomain
import Logging

/// Creates accounts from the command line, chiefly the chain's admins and a store's first manager.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage accounts.", subcommands: [Create.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an account. The password is read from standard input (or a prompt), never from an argument.")

        @Option(help: "Email address (unique, case-insensitive).")
        var email: String

        @Option(help: "Display name.")
        var name: String = "Manager"

        @Option(help: "customer, staff, manager or admin (the chain's admin: stores, aisles, catalogue; no store).")
        var role: String = "manager"

        @Option(help: "Store code or id (required for staff and managers).")
        var store: String?

        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            guard let role = Role(rawValue: role) else { throw ValidationError("--role must be customer, staff, manager or admin.") }
            if role.worksInStore && store == nil { throw ValidationError("--store is required for \(role.rawValue) accounts.") }
            if !role.worksInStore && store != nil {
                throw ValidationError("--store is only for staff and managers; \(role.rawValue) accounts belong to no store.")
            }
        }

        func run() async throws {
            let logger = makeLogger(level: .warning)
            let password = try readPassword()
            let role = Role(rawValue: role)!
            try await database.withDatabase(logger: logger) { connection in
                try await withDatabaseClient(connection: connection, logger: logger) { db in
                    let accounts = Accounts(database: db, hasher: PasswordHasher(cost: AppConfiguration.defaultBcryptCost))
                    let user: User
                    if role.worksInStore {
                        guard let storeID = try await accounts.store(codeOrID: store!, logger: logger) else {
                            throw ValidationError("No store with code or id '\(store!)'.")
                        }
                        user = try await accounts.createStoreAccount(
                            email: email, name: name, password: password, role: role, store: storeID, logger: logger)
                    } else if role == .admin {
                        user = try await accounts.createAdmin(email: email, name: name, password: password, logger: logger)
                    } else {
                        user = try await accounts.createCustomer(email: email, name: name, password: password, logger: logger)
                    }
                    print("Created \(user.role.rawValue) \(user.email) (\(user.id)).")
                }
            }
        }

        /// One line from stdin; on a terminal, prompted without echo.
        func readPassword() throws -> String {
            if isatty(STDIN_FILENO) == 1, let entered = getpass("Password for \(email): ") {
                return String(cString: entered)
            }
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw ValidationError("Give the password on standard input, e.g. `printf '%s\\n' \"$PASSWORD\" | fulfilment user create ...`.")
            }
            return line
        }
    }
}

/// Runs `body` with a database client that is running, and shuts it down afterwards.
///
/// `body` starts only once the task running the client has begun: started side by side, `body`
/// used to lease a connection first, and `serve --demo` logged PostgresNIO's warning that
/// `run()` had not been called on every first start (issue 24). The signal comes just before
/// `run()`, whose first step (before it can suspend) marks the client running.
func withDatabaseClient<T: Sendable>(
    connection: ConnectionInfo, logger: Logger, _ body: @Sendable (FulfilmentDomain.Database) async throws -> T
) async throws -> T {
    // The body waits until run()'s task has begun, but a lease can still land in the few
    // instructions before run() marks the client running (seen under load in a full test run).
    // PostgresNIO then warns and the lease simply waits for run(): harmless here, so that one
    // warning is dropped from this short-lived client's own log, and nothing else is.
    var background = logger
    background.handler = DroppingEarlyLeaseWarning(base: logger.handler)
    let database = try FulfilmentDomain.Database(connection: connection, logger: background)
    let (started, signalStarted) = AsyncStream<Never>.makeStream()
    return try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask {
            signalStarted.finish()
            try? await database.run()
            return nil
        }
        defer { group.cancelAll() }
        for await _ in started {}
        return try await body(database)
    }
}

/// A log handler that passes everything on but PostgresNIO's "lease before run()" warning.
struct DroppingEarlyLeaseWarning: LogHandler {
    var base: any LogHandler

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        if event.message.description.contains("PostgresClient.run()` hasn't been called yet") { return }
        base.log(event: event)
    }
}
