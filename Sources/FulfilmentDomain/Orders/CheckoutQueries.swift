import Foundation
import Logging
import PostgresNIO
import QRReceipt

/// Checkout's two statements: one read with no locks, then `place_order` (`sql/routines/place_order.sql`), which
/// takes and releases every lock inside itself.
package enum CheckoutQueries {
    /// The caller (admitted here, before anything else this read is used) and their context
    /// (`sql/routines/checkout_context.sql`), in one statement: a presented token is resolved by
    /// the same statement (`Caller`).
    package static func context(caller: Caller, key: String, on client: PostgresClient, logger: Logger) async throws -> (Identity, Checkout.Context) {
        let rows = try await client.run(
            """
            SELECT \(unescaped: Caller.columns), x.*
            FROM \(caller: caller) c LEFT JOIN LATERAL checkout_context(c.user_id, \(key)) x ON true
            """, logger: logger)
        let row = rows.collect().first?.makeRandomAccess()
        let customer = try caller.admit(row)
        // A caller whose user is gone: the session named a customer that no longer exists.
        guard let row, let name = try row[5].decode(String?.self) else { throw OrderError.unexpectedlyMissing("the caller's user") }
        var context = Checkout.Context(customerName: name)
        if let store = try row[6].decode(UUID?.self) {
            context.store = Checkout.Context.Store(
                id: StoreID(store), tokenNumber: try row[7].decode(Int32.self), currency: try row[8].decode(String.self),
                windowEnd: try row[9].decode(Int64.self), calendar: try CalendarQueries.calendar(in: row, from: 12))
        }
        if let earlier = try row[10].decode(UUID?.self) {
            context.earlier = (OrderID(earlier), try row[11].decode(Data.self))
        }
        return (customer, context)
    }

    /// Places the order in one statement (the caller runs it in BEGIN … COMMIT, so a failed
    /// commit is seen): cart lock, idempotency check, stock lock and reservation, slot place,
    /// order, lines, history, token, empty cart.
    package static func place(
        customer: UserID, store: StoreID, order: OrderID, method: PaymentMethod, key: String, hash: Data,
        slot: PickupSlot?, capacity: Int?, token: PickupToken, on client: some SQLRunner, logger: Logger
    ) async throws -> Checkout.Placed {
        let rows: SQLRows
        do {
            // A refusal `place_order` raised wrote nothing: it becomes the order's error, or
            // the race's that means "read again" (`OrderError`'s and `CheckoutRace`'s mappings).
            rows = try await CheckoutRace.mappingDatabaseErrors {
                try await OrderError.mappingDatabaseErrors {
                    try await client.run(
                        """
                        SELECT number, created_at, total, product_ids, names, unit_prices, quantities, minimum_ages, discount, discounts, substitutions
                        FROM place_order(\(customer.rawValue), \(store.rawValue), \(order.rawValue), \(method.rawValue), \(key), \(hash),
                                         \(slot?.start), \(slot?.end), \(capacity.map(Int32.init)),
                                         \(Int32(token.keyID.rawValue)), \(token.text), to_timestamp(\(Int64(token.claims.expiry))))
                        """, logger: logger)
                }
            }
        } catch let error where error.placeOrderRefusal == "slot_full" && slot != nil {
            // The slot's refusal, naming the slot the checkout asked for.
            throw SlotError.full(start: slot!.start)
        }
        for try await row in rows.decode((Int64, Date, Int64, [UUID], [String], [Int64], [Int32], [Int32], Int64, [Int64], String?).self) {
            let (number, createdAt, total, products, names, prices, quantities, ages, discount, discounts, substitutionsJSON) = row
            // Each line's substitution preference as the order keeps it (issue 27), in product order.
            let preferences = try substitutionsJSON.map { try JSONDecoder().decode([PlacedPreference].self, from: Data($0.utf8)) } ?? []
            let lines = products.indices.map {
                OrderLine(
                    productID: ProductID(products[$0]), name: names[$0], unitPrice: prices[$0], quantity: Int(quantities[$0]),
                    minimumAge: ages[$0] > 0 ? Int(ages[$0]) : nil, discount: discounts.indices.contains($0) ? discounts[$0] : 0,
                    substitution: preferences.indices.contains($0)
                        ? SubstitutionPreference(
                            kind: SubstitutionPreference.Kind(rawValue: preferences[$0].preference) ?? .none,
                            productIDs: preferences[$0].productIds.map(ProductID.init)) : .init(kind: .none))
            }
            return Checkout.Placed(number: number, createdAt: createdAt, total: total, discount: discount, lines: lines)
        }
        throw OrderError.unexpectedlyMissing("place_order's row")
    }
}

/// A line's substitution preference as `place_order` answers it (issue 27).
private struct PlacedPreference: Decodable {
    package var preference: String
    package var productIds: [UUID]
}
