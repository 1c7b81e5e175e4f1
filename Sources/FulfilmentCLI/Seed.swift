import ArgumentParser
import Foundation
import Fulfilment
import FulfilmentDomain
import Logging
import QRReceipt

struct Seed: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Load data: --demo loads the demo store (idempotent).")

    @Flag(help: "Load the demo store, its aisles and catalogue.")
    var demo = false

    @Option(help: "Pickup keys directory, to sign the demo orders' receipts. Env: FULFILMENT_KEYS_DIR. Default: ./.fulfilment/keys")
    var keysDir: String?

    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        guard demo else { throw ValidationError("Say what to load: --demo.") }
    }

    func run() async throws {
        let logger = makeLogger()
        let keyring = try PickupKeys.forService(
            directory: keysDir.map { URL(fileURLWithPath: $0) } ?? keysDirectoryFromEnvironment(),
            embeddedDatabase: database.explicitConnection == nil)
        try await database.withDatabase(logger: logger) { connection in
            try await Migrator(connection: connection, migrations: try Migration.load(from: Migration.defaultDirectory))
                .migrate(logger: logger)
            try await seedDemo(connection: connection, signer: keyring.signer, logger: logger)
        }
    }
}

/// Loads the demo store, its demo accounts and a few pending orders (receipts signed by
/// `signer`), and prints what it did, with the demo credentials, which exist only to be shared.
func seedDemo(connection: ConnectionInfo, signer: PickupTokenSigner, logger: Logger) async throws {
    try await withDatabaseClient(connection: connection, logger: logger) { database in
        let summary = try await DemoSeed.load(into: database, logger: logger)
        guard summary.created else {
            announce("The demo store is already loaded.")
            return
        }
        let accounts = Accounts(database: database, hasher: PasswordHasher(cost: AppConfiguration.defaultBcryptCost))
        _ = try await accounts.createCustomer(
            email: DemoAccounts.customer.email, name: "Demo Customer", password: DemoAccounts.customer.password, logger: logger)
        for (account, role) in [(DemoAccounts.staff, Role.staff), (DemoAccounts.manager, Role.manager)] {
            _ = try await accounts.createStoreAccount(
                email: account.email, name: "Demo \(role.rawValue.capitalized)", password: account.password, role: role,
                store: StoreID(summary.storeID), logger: logger)
        }
        _ = try await accounts.createAdmin(
            email: DemoAccounts.admin.email, name: "Demo Admin", password: DemoAccounts.admin.password, logger: logger)
        // A month of past orders first, so the numbers run in the order things happened.
        let history = try await DemoHistory.insert(
            into: database, store: StoreID(summary.storeID), staffEmail: DemoAccounts.staff.email, logger: logger)
        let orders = try await DemoOrders.place(
            into: database, signer: signer, customerEmail: DemoAccounts.customer.email, store: StoreID(summary.storeID),
            logger: logger)
        try await DemoKerbside.prepare(
            into: database, orders: orders, store: StoreID(summary.storeID), staffEmail: DemoAccounts.staff.email,
            customerEmail: DemoAccounts.customer.email, logger: logger)
        try await DemoContent.prepare(
            into: database, store: StoreID(summary.storeID), managerEmail: DemoAccounts.manager.email,
            customerEmail: DemoAccounts.customer.email, logger: logger)
        announce(
            "Loaded the demo store (\(summary.products) products, pending orders \(orders.map { "#\($0)" }.joined(separator: ", "))). Demo accounts:")
        for (label, account) in [
            ("customer", DemoAccounts.customer), ("staff", DemoAccounts.staff), ("manager", DemoAccounts.manager), ("admin", DemoAccounts.admin),
        ] {
            announce("  \(label.padding(toLength: 9, withPad: " ", startingAt: 0)) \(account.email)  password: \(account.password)")
        }
        announce(
            "Kerbside: order #\(orders.first ?? 0) waits for its customer's answer to a substitute (\(DemoKerbside.substitute.given) for "
                + "\(DemoKerbside.substitute.original)); order #\(orders.last ?? 0)'s customer is at bay \(DemoKerbside.bay) (/console/orders).")
        announce("Community: news and the recipes \(DemoContent.recipeTitles.joined(separator: " and ")) (GET /v1/recipes; /console/news).")
        announce(
            "History: \(history) orders of the last \(DemoHistory.days) days from \(DemoHistory.shoppers.count) regular shoppers (/console/reports/sales; find \"brown\" on /console/orders)."
        )
        announce("Demo coupon: \(DemoCoupons.code) at the demo store, \(DemoCoupons.description) (PUT /v1/cart/coupon).")
    }
}

/// Well-known demo credentials, printed by the seed; never use them outside a demo.
enum DemoAccounts {
    static let customer = (email: "customer@quickcart.demo", password: "customer-demo")
    static let staff = (email: "staff@quickcart.demo", password: "staff-demo-1")
    static let manager = (email: "manager@quickcart.demo", password: "manager-demo")
    /// The chain's admin: stores, aisles, the catalogue.
    static let admin = (email: "admin@quickcart.demo", password: "admin-demo-1")
}
