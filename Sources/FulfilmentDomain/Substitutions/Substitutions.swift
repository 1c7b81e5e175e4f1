import Foundation
import Logging
import PostgresNIO

/// Substitutions (issue 27): a picker short of a line gives something the customer accepts
/// instead, and the customer (or the desk, with them there) accepts or rejects it; and a store's
/// policy for both. Every state change is one transaction around one routine that takes its
/// locks and checks everything under them, then settles what a paid order is owed back.
package struct Substitutions: Sendable {
    package let database: Database
    /// The pick list a substitution is proposed on, read for its route.
    private let pickLists: PickLists

    package init(database: Database) {
        self.database = database
        self.pickLists = PickLists(database: database)
    }

    /// What the picker scanned or chose as the substitute.
    package enum Choice: Sendable {
        case barcode(String)
        case product(ProductID)
        /// Both: they must name the same product (a scan confirms the choice).
        case both(ProductID, barcode: String)
    }

    /// Gives `quantity` of `choice` instead of the order's `product` line on open pick list
    /// `pickList` of the caller's store, and answers the order with its new line.
    package func substitute(
        on pickList: PickListID, order: OrderID, product: ProductID, choice: Choice, quantity: Int, in scope: StoreScope,
        by identity: Identity, logger: Logger
    ) async throws -> (Order, SubstitutionID) {
        guard (1...Cart.maximumQuantity).contains(quantity) else {
            throw SubstitutionError.invalidField("quantity", "The quantity is a whole number from 1 to \(Cart.maximumQuantity).")
        }
        let list = try await pickLists.pickList(pickList, in: scope, logger: logger)
        guard list.isOpen else { throw PickListError.closed }
        let substitute = try await resolve(choice, logger: logger)
        let id = SubstitutionID(UUID())
        let order = try await SubstitutionError.mappingDatabaseErrors {
            try await database.transaction(logger: logger) { connection in
                try await SubstitutionQueries.substitute(
                    id: id, pickList: pickList, store: list.storeID, order: order, product: product, substitute: substitute,
                    quantity: quantity, by: identity.userID, on: connection, logger: logger)
                try await OrderQueries.reconcileRefund(of: order, on: connection, logger: logger)
                guard let order = try await OrderQueries.order(id: order, on: connection, logger: logger) else {
                    throw SubstitutionError.orderNotFound
                }
                return order
            }
        }
        return (order, id)
    }

    /// The product a scan or a choice names; a scan that names none is a 422 naming the field.
    private func resolve(_ choice: Choice, logger: Logger) async throws -> ProductID {
        func scanned(_ text: String) async throws -> ProductID {
            let barcode: Barcode
            do { barcode = try Barcode(text) } catch { throw SubstitutionError.invalidField("substituteBarcode", "That is not a barcode.") }
            guard let found = try await ProductQueries.product(barcode: barcode, store: nil, on: database.client, logger: logger) else {
                throw SubstitutionError.invalidField("substituteBarcode", "No product has this barcode.")
            }
            return found.id
        }
        switch choice {
        case .product(let id): return id
        case .barcode(let text): return try await scanned(text)
        case .both(let id, let text):
            guard try await scanned(text) == id else {
                throw PickListError.rejected(.wrongProduct(expected: .init(id), scanned: .barcode(text)))
            }
            return id
        }
    }

    /// The customer's answer to a substitution on their order, or staff of its store recording
    /// it at the desk; answers the order as it then stands. A rejected substitute's stock goes
    /// back and its price comes off the total, and a paid order is owed exactly that back.
    package func decide(_ id: SubstitutionID, of order: OrderID, accept: Bool, by identity: Identity, logger: Logger) async throws -> Order {
        let customer = identity.role == .customer ? identity.userID : nil
        let scope = customer == nil ? try StoreScope(staff: identity) : nil
        return try await SubstitutionError.mappingDatabaseErrors {
            try await database.transaction(logger: logger) { connection in
                _ = try await SubstitutionQueries.decide(
                    id, of: order, accept: accept, by: identity.userID, customer: customer, scope: scope, on: connection, logger: logger)
                try await OrderQueries.reconcileRefund(of: order, on: connection, logger: logger)
                guard let order = try await OrderQueries.order(id: order, on: connection, logger: logger) else {
                    throw SubstitutionError.substitutionNotFound
                }
                return order
            }
        }
    }

    /// The caller's store's policy.
    package func policy(in scope: StoreScope, logger: Logger) async throws -> SubstitutionPolicy {
        guard let policy = try await SubstitutionQueries.policy(in: scope, on: database.client, logger: logger) else {
            throw ChainError.storeNotFound
        }
        return policy
    }

    /// Sets the caller's store's policy: a default of `none` or `best_match` (a default cannot
    /// name products), and the price rule.
    package func setPolicy(_ policy: SubstitutionPolicy, in scope: StoreScope, logger: Logger) async throws -> SubstitutionPolicy {
        guard policy.defaultPreference != .specific else {
            throw SubstitutionError.invalidField("defaultPreference", "A store's default is none or best_match.")
        }
        guard let set = try await SubstitutionQueries.setPolicy(policy, in: scope, on: database.client, logger: logger) else {
            throw ChainError.storeNotFound
        }
        return set
    }

    /// Checks a cart line's preference from a client: its shape (`SubstitutionPreference.checked`)
    /// and that every product it names exists and is on sale.
    package func preference(kind: String, productIDs: [String]?, for product: ProductID, logger: Logger) async throws -> SubstitutionPreference {
        let preference = try SubstitutionPreference.checked(kind: kind, productIDs: productIDs, for: product)
        guard !preference.productIDs.isEmpty else { return preference }
        let found = try await SubstitutionQueries.onSale(preference.productIDs, on: database.client, logger: logger)
        guard found.count == preference.productIDs.count else {
            throw SubstitutionError.invalidField("substitution.productIds", "Each product named is one on sale.")
        }
        return preference
    }
}
