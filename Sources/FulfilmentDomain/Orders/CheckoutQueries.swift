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
        guard let row, let name = try row["customer_name"].decode(String?.self) else {
            throw OrderError.unexpectedlyMissing("the caller's user")
        }
        var context = Checkout.Context(customerName: name)
        // The context's columns come after the caller's: the cart's `store_id` is the one read by name.
        if let store = try row["store_id"].decode(UUID?.self) {
            // The calendar is `store_calendar`'s columns, from its first (`time_zone`) on.
            context.store = Checkout.Context.Store(
                id: StoreID(store), tokenNumber: try row["token_number"].decode(Int32.self), currency: try row["currency"].decode(String.self),
                windowEnd: try row["window_end"].decode(Int64.self),
                calendar: try CalendarQueries.calendar(in: row, from: row["time_zone"].columnIndex),
                taxSeller: try row["tax_json"].decode(String?.self).map(OrderParts.taxSeller))
        }
        if let earlier = try row["earlier_id"].decode(UUID?.self) {
            context.earlier = (OrderID(earlier), try row["earlier_hash"].decode(Data.self))
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
            // The slot's refusal, naming the slot the checkout asked for and what ran out
            // (`place_order`'s DETAIL, {"reason": "places" | "work"}; without one, or with a
            // reason this version does not know, the database and the code disagree: it fails loudly).
            let reason = try error.refusalDetail.map { try JSONDecoder().decode(SlotFullDetail.self, from: Data($0.utf8)).reason }
            throw SlotError.full(start: slot!.start, because: try SlotFullReason.stored(reason ?? "", column: "slot_full.reason"))
        }
        for try await placed in rows {
            let row = placed.makeRandomAccess()
            let products = try row["product_ids"].decode([UUID].self)
            let names = try row["names"].decode([String].self)
            let prices = try row["unit_prices"].decode([Int64].self)
            let quantities = try row["quantities"].decode([Int32].self)
            let ages = try row["minimum_ages"].decode([Int32].self)
            let discounts = try row["discounts"].decode([Int64].self)
            // Each line's substitution preference as the order keeps it (issue 27), in product order.
            let preferences =
                try row["substitutions"].decode(String?.self).map {
                    try JSONDecoder().decode([PlacedPreference].self, from: Data($0.utf8))
                } ?? []
            let lines = try products.indices.map { index in
                var substitution = SubstitutionPreference(kind: .none)
                if preferences.indices.contains(index) {
                    substitution = SubstitutionPreference(
                        kind: try SubstitutionPreference.Kind.stored(preferences[index].preference, column: "substitutions.preference"),
                        productIDs: preferences[index].productIds.map(ProductID.init))
                }
                var line = OrderLine(
                    productID: ProductID(products[index]), name: names[index], unitPrice: prices[index], quantity: Int(quantities[index]),
                    minimumAge: ages[index] > 0 ? Int(ages[index]) : nil, discount: discounts.indices.contains(index) ? discounts[index] : 0,
                    substitution: substitution)
                if preferences.indices.contains(index), let rate = preferences[index].taxRate {
                    line.tax = try TaxClass.stored(preferences[index].taxClass, column: "substitutions.taxClass").map {
                        LineTax(taxClass: $0, rateBasisPoints: rate)
                    }
                }
                return line
            }
            return Checkout.Placed(
                number: try row["number"].decode(Int64.self), createdAt: try row["created_at"].decode(Date.self),
                total: try row["total"].decode(Int64.self), discount: try row["discount"].decode(Int64.self), lines: lines)
        }
        throw OrderError.unexpectedlyMissing("place_order's row")
    }
}

/// A line's substitution preference as `place_order` answers it (issue 27), with its tax (issue 48).
private struct PlacedPreference: Decodable {
    package var preference: String
    package var productIds: [UUID]
    /// The tax class and rate the line's trigger recorded (issue 48); nil in no jurisdiction.
    package var taxClass: String?
    package var taxRate: Int?
}

/// `place_order`'s DETAIL when it refuses a full slot: what ran out.
private struct SlotFullDetail: Decodable {
    var reason: String
}
