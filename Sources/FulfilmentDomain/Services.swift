import Foundation
import QRReceipt

/// The domain services, built once when the application is built and shared by both front
/// doors: the API's handlers (`API`) and the pages (`ConsoleController`, `ShopController`).
/// A request takes one path, whichever door it came in by: handler or page → a service here →
/// its `*Queries` (bound SQL, the caller's store bound into it).
///
/// Each service is a value holding what it needs (the database, a key store, a clock); none
/// holds per-request state, so one of each serves every request of the instance.
package struct Services: Sendable {
    package let database: Database
    package let accounts: Accounts
    /// Live streams of the outbox's events (server-sent events).
    package let events: EventStream
    /// The pickup keys, reloaded when they change on disk; a request signs and verifies with the
    /// keyring of the moment (``keyring``).
    package let keys: KeyringStore
    /// Now, for the slot rules and checkout's plausibility check (`AppConfiguration.clock`).
    package let clock: @Sendable () -> Date

    package let readiness: Readiness
    package let catalogue: Catalogue
    package let catalogueImports: CatalogueImports
    package let listings: Listings
    package let minimumAges: MinimumAges
    package let stock: Stock
    package let prices: Prices
    package let sales: Sales
    package let favourites: Favourites
    package let stores: Stores
    package let carts: Carts
    package let guestCarts: GuestCarts
    package let checkout: Checkout
    package let orders: Orders
    package let reports: Reports
    package let orderTransitions: OrderTransitions
    package let orderChanges: OrderChanges
    package let receipts: Receipts
    /// Someone else collects (issue 48).
    package let collectorPasses: CollectorPasses
    package let collections: Collections
    /// Bags and staging places (issue 47).
    package let bags: Bags
    package let restrictedLines: RestrictedLines
    package let readyNotifications: ReadyNotifications
    package let payments: Payments
    package let paymentWebhook: PaymentWebhook
    package let refunds: Refunds
    package let pickupSlots: PickupSlots
    package let pickLists: PickLists
    package let substitutions: Substitutions
    package let arrivals: Arrivals
    package let coupons: Coupons
    package let news: News
    package let recipes: Recipes
    package let comments: Comments
    package let reviews: Reviews
    package let moderation: Moderation
    package let webhooks: Webhooks
    package let erasures: Erasures
    package let providerSignIn: ProviderSignIn
    /// The outbox's messages, rendered for the sender and the Mail page (issue 44).
    package let mail: Mail
    package let passwordResets: PasswordResets
    package let profiles: Profiles

    /// The keyring of the moment: signs pickup tokens and verifies them at collection.
    package var keyring: PickupKeyring { keys.current }

    package init(
        database: Database, migrations: [Migration], accounts: Accounts, events: EventStream, keys: KeyringStore,
        dataKeys: DataKeyStore, clock: @escaping @Sendable () -> Date = { Date() }, webhookAllowPrivate: Bool = false,
        providerSettings: ProviderSignInSettings = ProviderSignInSettings(), mail: Mail
    ) {
        self.database = database
        self.accounts = accounts
        self.events = events
        self.keys = keys
        self.clock = clock
        let signing: @Sendable () -> PickupTokenSigner = { keys.current.signer }
        readiness = Readiness(database: database, migrations: migrations)
        catalogue = Catalogue(database: database)
        catalogueImports = CatalogueImports(database: database)
        listings = Listings(database: database)
        minimumAges = MinimumAges(database: database)
        stock = Stock(database: database)
        prices = Prices(database: database)
        sales = Sales(database: database)
        favourites = Favourites(database: database)
        stores = Stores(database: database)
        carts = Carts(database: database)
        guestCarts = GuestCarts(database: database)
        checkout = Checkout(database: database, signing: signing)
        orders = Orders(database: database, clock: clock)
        reports = Reports(database: database, clock: clock)
        orderTransitions = OrderTransitions(database: database)
        orderChanges = OrderChanges(database: database)
        receipts = Receipts(database: database, signing: signing)
        collectorPasses = CollectorPasses(database: database, signing: signing)
        collections = Collections(database: database, verifying: { keys.current.verifier })
        bags = Bags(database: database)
        restrictedLines = RestrictedLines(database: database)
        readyNotifications = ReadyNotifications(database: database)
        payments = Payments(database: database)
        paymentWebhook = PaymentWebhook(database: database)
        refunds = Refunds(database: database)
        pickupSlots = PickupSlots(database: database, signing: signing)
        pickLists = PickLists(database: database)
        substitutions = Substitutions(database: database)
        arrivals = Arrivals(database: database)
        coupons = Coupons(database: database)
        news = News(database: database)
        recipes = Recipes(database: database)
        comments = Comments(database: database)
        reviews = Reviews(database: database)
        moderation = Moderation(database: database)
        webhooks = Webhooks(database: database, dataKeys: dataKeys, allowPrivateAddresses: webhookAllowPrivate)
        erasures = Erasures(database: database, accounts: accounts)
        providerSignIn = ProviderSignIn(
            database: database, accounts: accounts, directory: ProviderDirectory(keysMinimumAge: providerSettings.keysMinimumAge),
            settings: providerSettings, clock: clock)
        self.mail = mail
        passwordResets = PasswordResets(database: database, accounts: accounts, dataKeys: dataKeys)
        profiles = Profiles(database: database, accounts: accounts, dataKeys: dataKeys)
    }
}
