import Crypto
import Foundation
import Logging
import PostgresNIO
import QRReceipt

/// Turns a customer's cart into an order, in one transaction: reserve stock for every line,
/// create the order, its lines and first history entry, issue the pickup token, empty the cart.
/// Any failure rolls everything back.
///
/// Never oversells: the stock rows are locked in product-id order (the one order every
/// stock-changing transaction uses, so there are no deadlocks) and the reservation is a
/// guarded update (`on_hand - reserved >= quantity`), so the `reserved <= on_hand` CHECK is
/// never even approached by a losing racer.
///
/// At a store with a calendar the order takes a place in its pickup slot in the same
/// transaction, after the stock (lock order: cart, stock rows by product id, then the slot's
/// counter row; see `SlotBookingQueries`): a conditional update that refuses a full slot, so N
/// racers for the last place give one order, and a checkout that fails later takes no place.
struct Checkout: Sendable {
    let database: Database
    let signer: PickupTokenSigner

    struct Result: Sendable {
        var order: Order
        /// False when an earlier request with the same idempotency key made it.
        var created: Bool
    }

    /// What the idempotency key is bound to. A checkout without a slot hashes as it always did.
    static func requestHash(_ method: PaymentMethod, pickupSlot: Date? = nil) -> Data {
        let slot = pickupSlot.map { "\npickupSlot=\(Int64($0.timeIntervalSince1970.rounded(.down)))" } ?? ""
        return Data(SHA256.hash(data: Data("checkout v1\npaymentMethod=\(method.rawValue)\(slot)".utf8)))
    }

    /// `pickupSlot` is the start of the chosen slot (required at a store with a calendar);
    /// `now` is the moment the lead time and horizon are measured from.
    func run(
        customer: UserID, method: PaymentMethod, pickupSlot: Date? = nil, now: Date = Date(), idempotencyKey key: String?,
        logger: Logger
    ) async throws -> Result {
        guard let key, (1...255).contains(key.utf8.count) else { throw OrderError.missingIdempotencyKey }
        let hash = Self.requestHash(method, pickupSlot: pickupSlot)
        if let earlier = try await earlier(customer: customer, key: key, hash: hash, logger: logger) {
            return Result(order: earlier, created: false)
        }
        do {
            let order = try await database.transaction(logger: logger) { connection in
                try await place(
                    customer: customer, method: method, pickupSlot: pickupSlot, now: now, key: key, hash: hash, on: connection,
                    logger: logger)
            }
            return Result(order: order, created: true)
        } catch is AlreadyPlaced {
            // A concurrent retry with the same key won while this one waited for the cart; answer with its order.
            guard let earlier = try await earlier(customer: customer, key: key, hash: hash, logger: logger) else { throw APIError.internal }
            return Result(order: earlier, created: false)
        } catch where error.sqlState == SQLState.uniqueViolation && error.constraintName == "orders_customer_id_idempotency_key_key" {
            guard let earlier = try await earlier(customer: customer, key: key, hash: hash, logger: logger) else { throw error }
            return Result(order: earlier, created: false)
        }
    }

    /// Thrown inside the transaction when, once the cart lock is held, an order with this key exists.
    private struct AlreadyPlaced: Error {}

    /// The order an earlier request with this key made, or `idempotency_key_reused` when that
    /// request was a different one.
    private func earlier(customer: UserID, key: String, hash: Data, logger: Logger) async throws -> Order? {
        let rows = try await database.client.run(
            "SELECT id, request_hash FROM orders WHERE customer_id = \(customer.rawValue) AND idempotency_key = \(key)",
            logger: logger)
        for try await (id, storedHash) in rows.decode((UUID, Data).self) {
            guard storedHash == hash else { throw OrderError.idempotencyKeyReused }
            return try await OrderQueries.order(id: OrderID(id), on: database.client, logger: logger)
        }
        return nil
    }

    private func place(
        customer: UserID, method: PaymentMethod, pickupSlot: Date?, now: Date, key: String, hash: Data,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> Order {
        // The cart row is locked, so two checkouts of one cart (different keys) run one after the other.
        let carts = try await connection.run(
            """
            SELECT c.store_id, s.token_number, s.currency::text, extract(epoch FROM now() + s.collection_window)::int8, u.name
            FROM carts c JOIN stores s ON s.id = c.store_id JOIN users u ON u.id = c.customer_id
            WHERE c.customer_id = \(customer.rawValue)
            FOR UPDATE OF c
            """, logger: logger)
        var cart: (UUID, Int32, String, Int64, String)?
        for try await row in carts.decode((UUID, Int32, String, Int64, String).self) { cart = row }
        guard let (storeUUID, tokenNumber, currency, expiry, customerName) = cart else { throw OrderError.cartEmpty }
        // Holding the cart lock: a request with the same key that held it before us has committed by now.
        let sameKey = try await connection.run(
            "SELECT 1 FROM orders WHERE customer_id = \(customer.rawValue) AND idempotency_key = \(key)", logger: logger)
        for try await _ in sameKey { throw AlreadyPlaced() }
        let store = StoreID(storeUUID)
        // The slot is checked before anything is locked; its place is taken after the stock.
        let calendar = try await CalendarQueries.calendar(store: store, on: connection, logger: logger)
        var slot: PickupSlot?
        switch (calendar, pickupSlot) {
        case (let calendar?, let start?): slot = try calendar.slot(startingAt: start, now: now)
        case (.some, nil): throw SlotError.slotRequired
        case (nil, .some): throw SlotError.unavailable(.noCalendar)
        case (nil, nil): break
        }

        let items = try await connection.run(
            """
            SELECT i.product_id, p.name, p.price_amount, i.quantity, p.discontinued, p.minimum_age
            FROM cart_items i JOIN products p ON p.id = i.product_id
            WHERE i.customer_id = \(customer.rawValue)
            ORDER BY i.product_id
            """, logger: logger)
        var lines: [OrderLine] = []
        for try await row in items.decode((UUID, String, Int64, Int32, Bool, Int32?).self) {
            guard !row.4 else { throw OrderError.productDiscontinued(ProductID(row.0)) }
            lines.append(OrderLine(
                productID: ProductID(row.0), name: row.1, unitPrice: row.2, quantity: Int(row.3), minimumAge: row.5.map(Int.init)))
        }
        guard !lines.isEmpty else { throw OrderError.cartEmpty }
        // A line total saturates at Int64.max: a price written before the ceiling existed.
        guard let total = Money.sum(lines.map(\.lineTotal)), total < Int64.max else { throw OrderError.totalTooLarge }
        let productIDs = lines.map(\.productID.rawValue)
        let quantities = lines.map { Int32($0.quantity) }

        // Lock in product-id order, then check every line, so a shortage lists them all.
        let stock = try await connection.run(
            """
            SELECT product_id, on_hand - reserved FROM stock
            WHERE store_id = \(store.rawValue) AND product_id = ANY(\(productIDs))
            ORDER BY product_id
            FOR UPDATE
            """, logger: logger)
        var available: [UUID: Int] = [:]
        for try await (product, free) in stock.decode((UUID, Int32).self) { available[product] = Int(free) }
        let shortages = lines.compactMap { line -> OrderError.Shortage? in
            let free = available[line.productID.rawValue] ?? 0
            return free >= line.quantity ? nil : .init(productID: line.productID, requested: line.quantity, available: free)
        }
        guard shortages.isEmpty else { throw OrderError.insufficientStock(shortages) }
        let reserved = try await connection.run(
            """
            UPDATE stock SET reserved = stock.reserved + u.quantity, updated_at = now()
            FROM unnest(\(productIDs)::uuid[], \(quantities)::int4[]) AS u(product_id, quantity)
            WHERE stock.store_id = \(store.rawValue) AND stock.product_id = u.product_id
              AND stock.on_hand - stock.reserved >= u.quantity
            RETURNING 1
            """, logger: logger)
        var reservedLines = 0
        for try await _ in reserved { reservedLines += 1 }
        guard reservedLines == lines.count else { throw APIError.internal }  // unreachable: the rows are locked
        if let slot, let calendar {
            guard try await SlotBookingQueries.take(store: store, start: slot.start, capacity: calendar.capacity, on: connection, logger: logger)
            else { throw SlotError.full(start: slot.start) }
        }

        let orderID = OrderID(UUID())
        // The token lives until the slot's end plus the grace period; without a slot, the store's collection window.
        let claims = if let slot, let calendar {
            PickupToken.Claims(orderID: orderID.rawValue, storeNumber: UInt32(tokenNumber), expiresAt: calendar.collectionDeadline(for: slot))
        } else {
            PickupToken.Claims(orderID: orderID.rawValue, storeNumber: UInt32(tokenNumber), expiry: UInt32(clamping: expiry))
        }
        let token = try signer.sign(claims)
        let inserted = try await connection.run(
            """
            WITH o AS (
                INSERT INTO orders (id, store_id, customer_id, payment_method, total_amount, currency, idempotency_key, request_hash,
                                    pickup_slot_start, pickup_slot_end)
                VALUES (\(orderID.rawValue), \(store.rawValue), \(customer.rawValue), \(method.rawValue), \(total), \(currency),
                        \(key), \(hash), \(slot?.start), \(slot?.end))
                RETURNING number, created_at
            ), l AS (
                INSERT INTO order_lines (store_id, order_id, product_id, name, unit_price, quantity)
                SELECT \(store.rawValue), \(orderID.rawValue), u.product_id, u.name, u.price, u.quantity
                FROM unnest(\(productIDs)::uuid[], \(lines.map(\.name))::text[], \(lines.map(\.unitPrice))::int8[],
                            \(quantities)::int4[]) AS u(product_id, name, price, quantity)
            ), e AS (
                INSERT INTO order_events (store_id, order_id, from_status, to_status, actor_id)
                VALUES (\(store.rawValue), \(orderID.rawValue), NULL, 'pending', \(customer.rawValue))
            ), t AS (
                INSERT INTO pickup_tokens (store_id, order_id, key_id, text, expires_at)
                VALUES (\(store.rawValue), \(orderID.rawValue), \(Int32(token.keyID.rawValue)), \(token.text),
                        to_timestamp(\(Int64(token.claims.expiry))))
            ), d AS (
                DELETE FROM cart_items WHERE customer_id = \(customer.rawValue)
            )
            SELECT number, created_at FROM o
            """, logger: logger)
        var placed: (Int64, Date)?
        for try await row in inserted.decode((Int64, Date).self) { placed = row }
        guard let (number, createdAt) = placed else { throw APIError.internal }
        var order = Order(
            id: orderID, number: number, storeID: store, customerID: customer, customerName: customerName, status: .pending,
            paymentMethod: method, paymentStatus: .unpaid, total: Money(amount: total, currency: currency), createdAt: createdAt,
            lines: lines.sorted { ($0.name, $0.productID.description) < ($1.name, $1.productID.description) },
            history: [OrderEvent(from: nil, to: .pending, actorID: customer, actorName: customerName, reason: nil, at: createdAt)],
            pickup: PickupRecord(text: token.text, expiresAt: token.claims.expiresAt, usedAt: nil))
        order.pickupSlot = slot
        order.pickupTimeZone = calendar?.timeZone
        // Age-restricted goods: say "bring ID" at once (the lines' minimum ages, read with the cart
        // in this transaction, are what the insert trigger records).
        order.idCheck = lines.compactMap(\.minimumAge).max().map { IDCheck(minimumAge: $0, confirmation: nil) }
        return order
    }
}
