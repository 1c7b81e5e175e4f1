import Crypto
import Foundation
import Logging
import PostgresNIO
import QRReceipt

/// Turns a customer's cart into an order: reserve stock for every line, create the order, its
/// lines and first history entry, issue the pickup token, empty the cart. All of it is one
/// statement, `place_order` (`sql/routines/place_order.sql`), after one read with no locks; any failure
/// leaves nothing behind.
///
/// Never oversells: the stock rows are locked in product-id order (the one order every
/// stock-changing transaction uses, so there are no deadlocks) and the reservation is a
/// guarded update (`on_hand - reserved >= quantity`), so the `reserved <= on_hand` CHECK is
/// never even approached by a losing racer.
///
/// At a store with a calendar the order takes a place in its pickup slot in the same
/// statement, after the stock (lock order: cart, stock rows by product id, then the slot's
/// counter row; see `SlotBookingQueries`): `take_slot_room`, a conditional upsert that
/// refuses a full slot, so N racers for the last place give one order, and a checkout that
/// fails later takes no place.
package struct Checkout: Sendable {
    package let database: Database
    /// The signer of the moment (the keyring is reloaded when the keys rotate).
    package let signing: @Sendable () -> PickupTokenSigner

    package struct Result: Sendable {
        /// Who checked out (a presented token is resolved by checkout's first statement).
        package var customer: Identity
        package var order: Order
        /// False when an earlier request with the same idempotency key made it.
        package var created: Bool
    }

    /// What the idempotency key is bound to. A checkout without a slot hashes as it always did.
    /// Total for any date: one past what an `Int64` holds, or not a number at all, once stopped the
    /// process here (issue 41); `run` refuses such a slot before, and this never traps regardless.
    package static func requestHash(_ method: PaymentMethod, pickupSlot: Date? = nil) -> Data {
        let slot = pickupSlot.map { "\npickupSlot=\(Int64(exactly: $0.timeIntervalSince1970.rounded(.down)).map(String.init) ?? "invalid")" } ?? ""
        return Data(SHA256.hash(data: Data("checkout v1\npaymentMethod=\(method.rawValue)\(slot)".utf8)))
    }

    /// A slot no calendar could ever have offered, refused before anything computes with it: more
    /// than a year away either side of now (the longest horizon is `Bounds.horizonDays`; a year back
    /// still lets a late retry of a checkout find its order). The calendar judges every other slot.
    package static func checkPlausible(_ slot: Date, now: Date) throws(SlotError) {
        let seconds = slot.timeIntervalSince(now)
        guard seconds.isFinite, seconds > -366 * 86_400 else { throw .unavailable(.past) }
        guard seconds < 366 * 86_400 else { throw .unavailable(.beyondHorizon) }
    }

    /// `pickupSlot` is the start of the chosen slot (required at a store with a calendar);
    /// `now` is the moment the lead time and horizon are measured from.
    ///
    /// One read with no locks that also resolves the caller
    /// (``CheckoutQueries/context(caller:key:on:logger:)``), then the slot is checked and the
    /// token signed here, and `place_order` does every write in one statement, inside BEGIN … COMMIT.
    package func run(
        caller: Caller, method: PaymentMethod, pickupSlot: Date? = nil, now: Date = Date(), idempotencyKey key: String?,
        logger: Logger
    ) async throws -> Result {
        let key = key.flatMap { (1...255).contains($0.utf8.count) ? $0 : nil }
        if let pickupSlot { try Self.checkPlausible(pickupSlot, now: now) }
        let hash = Self.requestHash(method, pickupSlot: pickupSlot)
        var caller = caller
        for _ in 1...3 {
            let (customer, context) = try await CheckoutQueries.context(caller: caller, key: key ?? "", on: database.client, logger: logger)
            // Who is asking comes first (401/403 before any complaint about the request).
            guard let key else { throw OrderError.missingIdempotencyKey }
            caller = .resolved(customer)
            if let earlier = context.earlier {
                guard earlier.hash == hash else { throw OrderError.idempotencyKeyReused }
                guard let order = try await OrderQueries.order(id: earlier.id, on: database.client, logger: logger) else {
                    throw OrderError.unexpectedlyMissing("order \(earlier.id), placed with this key")
                }
                return Result(customer: customer, order: order, created: false)
            }
            do {
                let order = try await place(
                    context, customer: customer.userID, method: method, pickupSlot: pickupSlot, now: now, key: key, hash: hash,
                    logger: logger)
                return Result(customer: customer, order: order, created: true)
            } catch is CheckoutRace {
                // The cart moved to another store between the read and the write, or a concurrent
                // retry with the same key won (while this one waited for the cart, or at the
                // unique index): read again, which answers with that order.
            }
        }
        throw DatabaseBusy()
    }

    private func place(
        _ context: Context, customer: UserID, method: PaymentMethod, pickupSlot: Date?, now: Date, key: String,
        hash: Data, logger: Logger
    ) async throws -> Order {
        guard let store = context.store else { throw OrderError.cartEmpty }
        let calendar = store.calendar
        var slot: PickupSlot?
        switch (calendar, pickupSlot) {
        case (let calendar?, let start?): slot = try calendar.slot(startingAt: start, now: now)
        case (.some, nil): throw SlotError.slotRequired
        case (nil, .some): throw SlotError.unavailable(.noCalendar)
        case (nil, nil): break
        }

        let orderID = OrderID(UUID())
        // The token lives until the uncollected-order deadline: with a slot, the calendar's
        // (`StoreCalendar.collectionDeadline(for:)`); without one, the window end the context read
        // asked the database for (`collection_deadline` in `checkout_context`). No restatement here.
        let claims =
            if let slot, let calendar {
                PickupToken.Claims(
                    orderID: orderID.rawValue, storeNumber: UInt32(store.tokenNumber), expiresAt: calendar.collectionDeadline(for: slot))
            } else {
                PickupToken.Claims(orderID: orderID.rawValue, storeNumber: UInt32(store.tokenNumber), expiry: UInt32(clamping: store.windowEnd))
            }
        let token = try signing().sign(claims)
        // In BEGIN … COMMIT rather than as a statement of its own: an implicit commit that fails
        // (its NOTIFY finds the disk full) is reported after the rows, where PostgresNIO does not
        // look, so the checkout was answered 201 and then rolled back. COMMIT's own error is seen.
        let placed = try await database.transaction(logger: logger) { connection in
            try await CheckoutQueries.place(
                customer: customer, store: store.id, order: orderID, method: method, key: key, hash: hash, slot: slot,
                capacity: calendar?.capacity, token: token, on: connection, logger: logger)
        }
        var order = Order(
            id: orderID, number: placed.number, storeID: store.id, customerID: customer, customerName: context.customerName,
            status: .pending, paymentMethod: method, paymentStatus: .unpaid, total: Money(amount: placed.total, currency: store.currency),
            createdAt: placed.createdAt,
            lines: placed.lines.sorted { ($0.name, $0.productID.description) < ($1.name, $1.productID.description) },
            history: [OrderEvent(from: nil, to: .pending, actorID: customer, actorName: context.customerName, reason: nil, at: placed.createdAt)],
            pickup: PickupRecord(text: token.text, expiresAt: token.claims.expiresAt, usedAt: nil))
        order.discount = placed.discount
        order.pickupSlot = slot
        order.pickupTimeZone = calendar?.timeZone
        order.taxSeller = store.taxSeller
        // Just placed: pending and on no pick list, so its customer may change it (issue 48).
        order.changeable = true
        // Age-restricted goods: say "bring ID" at once (the lines' minimum ages, read with the cart
        // in the same statement, are what the insert trigger records).
        order.idCheck = placed.lines.compactMap(\.minimumAge).max().map { IDCheck(minimumAge: $0, confirmation: nil) }
        return order
    }
}
