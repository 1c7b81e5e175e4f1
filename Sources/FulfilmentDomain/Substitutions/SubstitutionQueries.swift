import Foundation
import Logging
import PostgresNIO

/// The SQL of substitutions, a store's substitution policy and arrivals (issue 27). The
/// substitution, the decision and the arrival are each one routine (`sql/routines/`) that takes
/// its locks and checks everything under them; the caller's store or customer is bound into it.
package enum SubstitutionQueries {
    /// `substitute_order_line`: `quantity` units of the order's `product` line become a new line
    /// of `substitute`, proposed, under id `id`. Refusals are `SubstitutionError`s.
    package static func substitute(
        id: SubstitutionID, pickList: PickListID, store: StoreID, order: OrderID, product: ProductID, substitute: ProductID,
        quantity: Int, by staff: UserID, on connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.run(
            """
            SELECT substitute_order_line(\(store.rawValue), \(pickList.rawValue), \(order.rawValue), \(product.rawValue),
                                         \(substitute.rawValue), \(Int32(quantity)), \(staff.rawValue), \(id.rawValue))
            """, logger: logger)
    }

    /// `decide_substitution`: the answer, by the order's customer (`customer`) or by staff of its
    /// store (`scope`); whether it changed anything (the same answer twice does not).
    package static func decide(
        _ id: SubstitutionID, of order: OrderID, accept: Bool, by actor: UserID, customer: UserID?, scope: StoreScope?,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> Bool {
        let rows = try await connection.run(
            """
            SELECT decide_substitution(\(order.rawValue), \(id.rawValue), \(accept), \(actor.rawValue), \(customer?.rawValue)::uuid,
                                       \(scope?.store?.rawValue)::uuid)
            """, logger: logger)
        for try await changed in rows.decode(Bool.self) { return changed }
        return false
    }

    /// `record_arrival`: the order's customer is here; whether this is their first "I'm here".
    package static func arrive(
        order: OrderID, customer: UserID, bay: String?, vehicle: String?, note: String?, on connection: PostgresConnection,
        logger: Logger
    ) async throws -> Bool {
        let rows = try await connection.run(
            "SELECT record_arrival(\(order.rawValue), \(customer.rawValue), \(bay), \(vehicle), \(note))", logger: logger)
        for try await first in rows.decode(Bool.self) { return first }
        return false
    }

    /// The products of `ids` that exist and are on sale (a `specific` preference names only those).
    package static func onSale(_ ids: [ProductID], on client: PostgresClient, logger: Logger) async throws -> Set<ProductID> {
        let rows = try await client.run(
            "SELECT id FROM products WHERE id = ANY (\(ids.map(\.rawValue))::uuid[]) AND NOT discontinued", logger: logger)
        var found: Set<ProductID> = []
        for try await id in rows.decode(UUID.self) { found.insert(ProductID(id)) }
        return found
    }

    /// The store's substitution policy; nil when the scope reaches no such store.
    package static func policy(in scope: StoreScope, on client: PostgresClient, logger: Logger) async throws -> SubstitutionPolicy? {
        let rows = try await client.run(
            "SELECT substitution_default, substitution_price_rule FROM stores WHERE id = \(scope)", logger: logger)
        return try await decodePolicy(rows)
    }

    /// Sets the store's policy and answers it; nil when the scope reaches no such store.
    package static func setPolicy(_ policy: SubstitutionPolicy, in scope: StoreScope, on client: PostgresClient, logger: Logger) async throws
        -> SubstitutionPolicy?
    {
        let rows = try await client.run(
            """
            UPDATE stores SET substitution_default = \(policy.defaultPreference.rawValue), substitution_price_rule = \(policy.priceRule.rawValue)
            WHERE id = \(scope)
            RETURNING substitution_default, substitution_price_rule
            """, logger: logger)
        return try await decodePolicy(rows)
    }

    private static func decodePolicy(_ rows: SQLRows) async throws -> SubstitutionPolicy? {
        for try await row in rows {
            let r = row.makeRandomAccess()
            return SubstitutionPolicy(
                defaultPreference: try r["substitution_default"].stored(SubstitutionPreference.Kind.self),
                priceRule: try r["substitution_price_rule"].stored(SubstitutionPriceRule.self))
        }
        return nil
    }
}
