import Foundation
import Logging
import PostgresNIO
import QRReceipt

/// Checkout's two statements: one read with no locks, then `place_order` (migration 014), which
/// takes and releases every lock inside itself.
enum CheckoutQueries {
    /// What the service needs before placing an order: who the customer is, the cart's store
    /// (its token number, currency, collection window) and its calendar, and any order this
    /// idempotency key already made.
    struct Context: Sendable {
        struct Store: Sendable {
            var id: StoreID
            var tokenNumber: Int32
            var currency: String
            /// When a token without a slot expires: now plus the store's collection window.
            var windowEnd: Int64
            var calendar: StoreCalendar?
        }
        var customerName: String
        /// Nil when the customer has no cart.
        var store: Store?
        var earlier: (id: OrderID, hash: Data)?
    }

    /// The caller (admitted here, before anything else this read is used) and their context
    /// (`checkout_context`, migration 018), in one statement: a presented token is resolved by
    /// the same statement (`Caller`).
    static func context(caller: Caller, key: String, on client: PostgresClient, logger: Logger) async throws -> (Identity, Context) {
        let rows = try await client.run(
            """
            SELECT \(unescaped: Caller.columns), x.*
            FROM \(caller: caller) c LEFT JOIN LATERAL checkout_context(c.user_id, \(key)) x ON true
            """, logger: logger)
        let row = rows.collect().first?.makeRandomAccess()
        let customer = try caller.admit(row)
        // A caller whose user is gone: the session named a customer that no longer exists.
        guard let row, let name = try row[5].decode(String?.self) else { throw APIError.internal }
        var context = Context(customerName: name)
        if let store = try row[6].decode(UUID?.self) {
            context.store = Context.Store(
                id: StoreID(store), tokenNumber: try row[7].decode(Int32.self), currency: try row[8].decode(String.self),
                windowEnd: try row[9].decode(Int64.self), calendar: try CalendarQueries.calendar(in: row, from: 12))
        }
        if let earlier = try row[10].decode(UUID?.self) {
            context.earlier = (OrderID(earlier), try row[11].decode(Data.self))
        }
        return (customer, context)
    }

    /// What `place_order` wrote, for the answer.
    struct Placed: Sendable {
        var number: Int64
        var createdAt: Date
        var total: Int64
        var lines: [OrderLine]
    }

    /// `place_order` wrote nothing because what the read saw has changed: read again.
    enum ReadAgain: Error {
        case cartChanged
        case alreadyPlaced
    }

    /// Places the order in one statement (the caller runs it in BEGIN … COMMIT, so a failed
    /// commit is seen): cart lock, idempotency check, stock lock and reservation, slot place,
    /// order, lines, history, token, empty cart.
    static func place(
        customer: UserID, store: StoreID, order: OrderID, method: PaymentMethod, key: String, hash: Data,
        slot: PickupSlot?, capacity: Int?, token: PickupToken, on client: some SQLRunner, logger: Logger
    ) async throws -> Placed {
        let rows: SQLRows
        do {
            rows = try await client.run(
                """
                SELECT number, created_at, total, product_ids, names, unit_prices, quantities, minimum_ages
                FROM place_order(\(customer.rawValue), \(store.rawValue), \(order.rawValue), \(method.rawValue), \(key), \(hash),
                                 \(slot?.start), \(slot?.end), \(capacity.map(Int32.init)),
                                 \(Int32(token.keyID.rawValue)), \(token.text), to_timestamp(\(Int64(token.claims.expiry))))
                """, logger: logger)
        } catch let error as PSQLError where error.sqlState == "FC000" {
            // A refusal `place_order` raised: nothing was written.
            throw refusal(error.serverInfo?[.message] ?? "", detail: error.serverInfo?[.detail], slot: slot)
        }
        for try await row in rows.decode((Int64, Date, Int64, [UUID], [String], [Int64], [Int32], [Int32]).self) {
            let (number, createdAt, total, products, names, prices, quantities, ages) = row
            let lines = products.indices.map {
                OrderLine(
                    productID: ProductID(products[$0]), name: names[$0], unitPrice: prices[$0], quantity: Int(quantities[$0]),
                    minimumAge: ages[$0] > 0 ? Int(ages[$0]) : nil)
            }
            return Placed(number: number, createdAt: createdAt, total: total, lines: lines)
        }
        throw APIError.internal
    }

    private static func refusal(_ code: String, detail: String?, slot: PickupSlot?) -> any Error {
        struct Discontinued: Decodable { var productId: UUID }
        struct Short: Decodable { var productId: UUID, requested: Int, available: Int }
        func details<T: Decodable>(_ type: T.Type) -> T? { detail.flatMap { try? JSONDecoder().decode(T.self, from: Data($0.utf8)) } }
        switch code {
        case "cart_changed": return ReadAgain.cartChanged
        case "already_placed": return ReadAgain.alreadyPlaced
        case "cart_empty": return OrderError.cartEmpty
        case "total_too_large": return OrderError.totalTooLarge
        case "slot_full": if let slot { return SlotError.full(start: slot.start) }
        case "product_discontinued":
            if let line = details(Discontinued.self) { return OrderError.productDiscontinued(ProductID(line.productId)) }
        case "insufficient_stock":
            if let lines = details([Short].self) {
                return OrderError.insufficientStock(lines.map {
                    .init(productID: ProductID($0.productId), requested: $0.requested, available: $0.available)
                })
            }
        default: break
        }
        return APIError.internal
    }
}
