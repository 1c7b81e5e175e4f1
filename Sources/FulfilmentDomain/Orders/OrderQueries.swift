import Foundation
import Logging
import PostgresNIO

/// The SQL of orders: reading one (`order_view`) or a list, and the writes every order-changing
/// transaction shares (status, stock, totals, refunds owed, history). The statements that only
/// one operation runs live in its own `*Queries` (`CheckoutQueries`, `PaymentQueries`...).
package enum OrderQueries {
    /// One order with its lines, history, age check and pickup token, or nil: one statement,
    /// the lines, history and age check riding along as JSON (``OrderParts``).
    package static func order(id: OrderID, on connection: some SQLRunner, logger: Logger) async throws -> Order? {
        let rows = try await connection.run("SELECT v.* FROM order_view(\(id.rawValue)) v", logger: logger)
        return try rows.collect().first.flatMap { try order(view: $0.makeRandomAccess()) }
    }

    /// The order if the caller may see it: they are its customer, or staff of its store (`scope`;
    /// nil for a caller who works in no store, whose scope is no store's rows: a bound NULL
    /// matches none); nil otherwise, as if there were no such order. It says whether it will be
    /// ready on time at `now` (`order_timeliness`, issue 47).
    package static func order(
        id: OrderID, visibleTo customer: UserID, orStaffIn scope: StoreScope?, now: Date, on connection: some SQLRunner, logger: Logger
    ) async throws -> Order? {
        let rows = try await connection.run(
            """
            SELECT t.ready_by, t.timeliness, t.ready_estimate, v.*
            FROM order_view(\(id.rawValue)) v LEFT JOIN LATERAL order_timeliness(v.id, \(now)) t ON true
            WHERE v.customer_id = \(customer.rawValue) OR v.store_id = \(scope?.store?.rawValue)
            """, logger: logger)
        return try rows.collect().first.flatMap { try order(view: $0.makeRandomAccess()) }
    }

    /// The order's pickup token text, for its customer only; nil for anyone else's order or an
    /// order without one.
    package static func pickupToken(of id: OrderID, customer: UserID, on client: PostgresClient, logger: Logger) async throws -> String? {
        let rows = try await client.run(
            "SELECT v.token_text FROM order_view(\(id.rawValue)) v WHERE v.customer_id = \(customer.rawValue)", logger: logger)
        for try await text in rows.decode(String?.self) { return text }
        return nil
    }

    /// The order in `order_view`'s columns (migration 017), read by their names; nil when they
    /// are NULL (a statement that looked for an order and found none). A statement that returns
    /// other columns too puts `order_view`'s last, so where a name is in both (`store_id` beside
    /// `Caller.columns`) the order's is the one read.
    package static func order(view r: PostgresRandomAccessRow) throws -> Order? {
        guard let id = try r["id"].decode(UUID?.self) else { return nil }
        let createdAt = try r["created_at"].decode(Date.self)
        var order = Order(
            id: OrderID(id), number: try r["number"].decode(Int64.self), storeID: StoreID(try r["store_id"].decode(UUID.self)),
            customerID: UserID(try r["customer_id"].decode(UUID.self)), customerName: try r["customer_name"].decode(String.self),
            status: try r["status"].stored(OrderStatus.self), paymentMethod: try r["payment_method"].stored(PaymentMethod.self),
            paymentStatus: try r["payment_status"].stored(PaymentStatus.self),
            total: Money(amount: try r["total_amount"].decode(Int64.self), currency: try r["currency"].decode(String.self)),
            createdAt: createdAt, packagedAt: try r["packaged_at"].decode(Date?.self), deliveringAt: try r["delivering_at"].decode(Date?.self),
            completedAt: try r["completed_at"].decode(Date?.self), cancelledAt: try r["cancelled_at"].decode(Date?.self),
            paidAt: try r["paid_at"].decode(Date?.self), collectedAt: try r["collected_at"].decode(Date?.self),
            collectedBy: try r["collected_by"].decode(UUID?.self).map(UserID.init),
            pickup: try r["token_text"].decode(String?.self).map {
                PickupRecord(
                    text: $0, expiresAt: try r["token_expires_at"].decode(Date?.self) ?? createdAt, usedAt: try r["token_used_at"].decode(Date?.self))
            },
            refundDueAmount: try r["refund_due_amount"].decode(Int64.self))
        if let start = try r["pickup_slot_start"].decode(Date?.self), let end = try r["pickup_slot_end"].decode(Date?.self) {
            order.pickupSlot = PickupSlot(start: start, end: end)
            order.pickupTimeZone = try r["time_zone"].decode(String?.self).flatMap(TimeZone.init(identifier:))
        }
        order.lines = try OrderParts.lines(try r["lines"].decode(String.self))
        order.history = try OrderParts.history(try r["history"].decode(String.self))
        order.idCheck = try OrderParts.idCheck(try r["id_check"].decode(String.self))
        order.discount = try r["discount_amount"].decode(Int64?.self) ?? 0
        order.arrival = try r["arrival_json"].decode(String?.self).map(OrderParts.arrival)
        order.taxSeller = try r["tax_json"].decode(String?.self).map(OrderParts.taxSeller)
        order.bags = try OrderParts.bags(try r["bags_json"].decode(String.self))
        order.timeliness = try timeliness(r)
        order.changeable = try r["changeable"].decode(Bool?.self) ?? false
        return order
    }

    /// `order_timeliness`'s columns when the statement read them (the order's reads that pass the
    /// clock do); nil when it did not, or when the order has none (closed, or no slot).
    static func timeliness(_ r: PostgresRandomAccessRow) throws -> OrderTimeliness? {
        guard r.contains("timeliness"), let readyBy = try r["ready_by"].decode(Date?.self) else { return nil }
        return OrderTimeliness(
            readyBy: readyBy, status: try r["timeliness"].stored(OrderTimeliness.Status.self),
            expectedReady: try r["ready_estimate"].decode(Date?.self))
    }

    /// A customer's orders, newest first.
    package static func list(customer: UserID, limit: Int, cursor: String?, on client: PostgresClient, logger: Logger) async throws -> Page<
        OrderSummary
    > {
        let after = try PageCursor.decode(cursor, as: PageCursor.Dated.self)
        let rows = try await client.run(
            """
            SELECT \(unescaped: summaryColumns)
            FROM orders o JOIN users u ON u.id = o.customer_id
            WHERE o.customer_id = \(customer.rawValue)
              AND (\(after == nil) OR ((extract(epoch FROM o.created_at) * 1000000)::int8, o.id)
                                      < (\(after?.t ?? 0), \(after?.id ?? UUID())))
            ORDER BY o.created_at DESC, o.id DESC
            LIMIT \(limit + 1)
            """, logger: logger)
        return try await page(rows, limit: limit)
    }

    /// A store's order board, oldest first (the order they should be worked in): the open
    /// orders, or those with `status`, each saying whether it will be ready on time at `now`.
    package static func board(
        store: StoreID, in scope: StoreScope, status: OrderStatus?, now: Date, limit: Int, cursor: String?, on client: PostgresClient,
        logger: Logger
    ) async throws -> Page<OrderSummary> {
        let after = try PageCursor.decode(cursor, as: PageCursor.Dated.self)
        let rows = try await client.run(
            """
            SELECT \(unescaped: summaryColumns), t.ready_by, t.timeliness, t.ready_estimate
            FROM orders o JOIN users u ON u.id = o.customer_id
            LEFT JOIN LATERAL order_timeliness(o.id, \(now)) t ON true
            WHERE o.store_id = \(store.rawValue) AND o.store_id = \(scope)
              AND (CASE WHEN \(status?.rawValue)::text IS NULL THEN o.status IN ('pending', 'packaged', 'delivering')
                        ELSE o.status = \(status?.rawValue) END)
              AND (\(after == nil) OR ((extract(epoch FROM o.created_at) * 1000000)::int8, o.id)
                                      > (\(after?.t ?? 0), \(after?.id ?? UUID())))
            ORDER BY o.created_at, o.id
            LIMIT \(limit + 1)
            """, logger: logger)
        return try await page(rows, limit: limit)
    }

    /// The scope's store's orders `search` names, newest first (`Orders.search`). The store's
    /// orders are read by `orders_store_created` and the customer's name and email matched on
    /// each, which a store's few hundred thousand orders bear; the number and the receipt match
    /// exactly.
    package static func search(
        _ search: OrderSearch, of store: StoreID, in scope: StoreScope, status: OrderStatus?, limit: Int, cursor: String?, on client: PostgresClient,
        logger: Logger
    ) async throws -> Page<OrderSummary> {
        let after = try PageCursor.decode(cursor, as: PageCursor.Dated.self)
        let rows = try await client.read(
            """
            SELECT \(unescaped: summaryColumns)
            FROM orders o JOIN users u ON u.id = o.customer_id
            WHERE o.store_id = \(store.rawValue) AND o.store_id = \(scope)
              AND (o.number = \(search.number) OR o.id = \(search.receiptOrder?.rawValue)
                   OR strpos(lower(u.name), lower(\(search.words))) > 0 OR strpos(lower(u.email), lower(\(search.words))) > 0)
              AND (\(status?.rawValue)::text IS NULL OR o.status = \(status?.rawValue))
              AND (\(after == nil) OR ((extract(epoch FROM o.created_at) * 1000000)::int8, o.id)
                                      < (\(after?.t ?? 0), \(after?.id ?? UUID())))
            ORDER BY o.created_at DESC, o.id DESC
            LIMIT \(limit + 1)
            """, logger: logger)
        return try await page(rows, limit: limit)
    }

    /// Open orders of the scope's store whose customer has arrived, longest wait first
    /// (`orders_store_arrived`, migration 036).
    package static func arrivals(in scope: StoreScope, on client: PostgresClient, logger: Logger) async throws -> [OrderSummary] {
        let rows = try await client.run(
            """
            SELECT \(unescaped: summaryColumns)
            FROM orders o JOIN users u ON u.id = o.customer_id
            WHERE o.store_id = \(scope) AND o.arrived_at IS NOT NULL AND o.status IN ('packaged', 'delivering')
            ORDER BY o.arrived_at, o.id
            LIMIT 200
            """, logger: logger)
        return try await page(rows, limit: 200).items
    }

    /// The columns ``summary(_:)`` reads, over `orders o JOIN users u` (the customer).
    private static let summaryColumns = """
        o.id, o.number, o.store_id, u.name AS customer_name, o.status, o.payment_method, o.payment_status, o.total_amount,
        o.currency::text AS currency,
        (SELECT coalesce(sum(quantity), 0)::int8 FROM order_lines l WHERE l.order_id = o.id) AS item_count, o.created_at,
        (SELECT count(*) FROM order_lines l WHERE l.order_id = o.id AND l.substitution_status = 'proposed') AS open_substitutions,
        (SELECT count(*) FROM order_lines l WHERE l.order_id = o.id AND l.picked_short AND coalesce(l.picked_quantity, 0) < l.quantity)
            AS short_lines,
        (extract(epoch FROM o.created_at) * 1000000)::int8 AS created_micros, o.pickup_slot_start, o.pickup_slot_end,
        CASE WHEN o.arrived_at IS NOT NULL THEN json_build_object(
            'at', ((extract(epoch FROM o.arrived_at) - 946684800) * 1000000)::int8, 'bay', o.arrival_bay,
            'vehicle', o.arrival_vehicle, 'note', o.arrival_note)::text END AS arrival_json
        """

    /// An order of a list from a row of ``summaryColumns``.
    private static func summary(_ r: PostgresRandomAccessRow) throws -> OrderSummary {
        let start = try r["pickup_slot_start"].decode(Date?.self)
        let end = try r["pickup_slot_end"].decode(Date?.self)
        return OrderSummary(
            id: OrderID(try r["id"].decode(UUID.self)), number: try r["number"].decode(Int64.self),
            storeID: StoreID(try r["store_id"].decode(UUID.self)), customerName: try r["customer_name"].decode(String.self),
            status: try r["status"].stored(OrderStatus.self), paymentMethod: try r["payment_method"].stored(PaymentMethod.self),
            paymentStatus: try r["payment_status"].stored(PaymentStatus.self),
            total: Money(amount: try r["total_amount"].decode(Int64.self), currency: try r["currency"].decode(String.self)),
            itemCount: Int(try r["item_count"].decode(Int64.self)), createdAt: try r["created_at"].decode(Date.self),
            pickupSlot: start.flatMap { start in end.map { PickupSlot(start: start, end: $0) } },
            arrival: try r["arrival_json"].decode(String?.self).map(OrderParts.arrival),
            openSubstitutions: Int(try r["open_substitutions"].decode(Int64.self)), shortLines: Int(try r["short_lines"].decode(Int64.self)),
            timeliness: try timeliness(r))
    }

    private static func page(_ rows: SQLRows, limit: Int) async throws -> Page<OrderSummary> {
        var items: [(OrderSummary, Int64)] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            items.append((try summary(r), try r["created_micros"].decode(Int64.self)))
        }
        let page = Array(items.prefix(limit))
        let next = items.count > limit ? page.last.map { PageCursor.encode(PageCursor.Dated(t: $0.1, id: $0.0.id.rawValue)) } : nil
        return Page(items: page.map(\.0), nextCursor: next)
    }

    /// The order's store, customer and status (no lock): in `scope` (staff of its store).
    package static func state(of id: OrderID, in scope: StoreScope, on connection: PostgresConnection, logger: Logger) async throws
        -> OrderState?
    {
        let rows = try await connection.run(
            "SELECT store_id, customer_id, status FROM orders WHERE id = \(id.rawValue) AND store_id = \(scope)", logger: logger)
        return try await state(rows)
    }

    /// The same for the order's own customer.
    package static func state(of id: OrderID, customer: UserID, on connection: PostgresConnection, logger: Logger) async throws -> OrderState? {
        let rows = try await connection.run(
            "SELECT store_id, customer_id, status FROM orders WHERE id = \(id.rawValue) AND customer_id = \(customer.rawValue)",
            logger: logger)
        return try await state(rows)
    }

    /// The order's status as it is now (after losing a race to another transaction).
    package static func status(of id: OrderID, on connection: PostgresConnection, logger: Logger) async throws -> OrderStatus? {
        let rows = try await connection.run("SELECT status FROM orders WHERE id = \(id.rawValue)", logger: logger)
        for try await row in rows { return try row.makeRandomAccess()["status"].stored(OrderStatus.self) }
        return nil
    }

    private static func state(_ rows: SQLRows) async throws -> OrderState? {
        for try await row in rows {
            let r = row.makeRandomAccess()
            return OrderState(
                store: StoreID(try r["store_id"].decode(UUID.self)), customer: UserID(try r["customer_id"].decode(UUID.self)),
                status: try r["status"].stored(OrderStatus.self))
        }
        return nil
    }

    /// The conditional update for `from → to`, stamping when it happened; false when the order
    /// was not in `from` (another transaction moved it first).
    package static func move(_ id: OrderID, from: OrderStatus, to: OrderStatus, on connection: PostgresConnection, logger: Logger) async throws
        -> Bool
    {
        let updated = try await connection.run(
            """
            UPDATE orders SET status = \(to.rawValue),
                packaged_at = CASE WHEN \(to.rawValue) = 'packaged' THEN now() ELSE packaged_at END,
                delivering_at = CASE WHEN \(to.rawValue) = 'delivering' THEN now() ELSE delivering_at END,
                cancelled_at = CASE WHEN \(to.rawValue) = 'cancelled' THEN now() ELSE cancelled_at END
            WHERE id = \(id.rawValue) AND status = \(from.rawValue)
            RETURNING 1
            """, logger: logger)
        var moved = false
        for try await _ in updated { moved = true }
        return moved
    }

    /// The order leaves any open pick list it is on.
    package static func leaveOpenPickLists(_ id: OrderID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run("UPDATE pick_list_orders SET open = false WHERE order_id = \(id.rawValue) AND open", logger: logger)
    }

    /// Gives back the stock a cancelled order still held: all it ordered while pending
    /// (`packaged` false), what was picked once packaged. Call with the stock rows locked.
    package static func releaseStock(of id: OrderID, store: StoreID, packaged: Bool, on connection: PostgresConnection, logger: Logger)
        async throws
    {
        try await connection.run(
            """
            UPDATE stock SET reserved = stock.reserved - held_quantity(l, \(packaged)), updated_at = now()
            FROM order_lines l
            WHERE l.order_id = \(id.rawValue) AND stock.store_id = \(store.rawValue) AND stock.product_id = l.product_id
            """, logger: logger)
    }

    /// Locks the stock rows of an order's lines in product-id order: the one lock order every
    /// stock-changing transaction uses, so they never deadlock.
    package static func lockStock(of order: OrderID, store: StoreID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            """
            SELECT 1 FROM stock
            WHERE store_id = \(store.rawValue)
              AND product_id IN (SELECT product_id FROM order_lines WHERE order_id = \(order.rawValue))
            ORDER BY product_id
            FOR UPDATE
            """, logger: logger)
    }

    /// Packaging a pending order: every line closed short gives back the stock it did not get,
    /// and the total becomes what is in the bags. Call with the order's stock rows locked.
    package static func releaseShortLines(of order: OrderID, store: StoreID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            """
            UPDATE stock SET reserved = stock.reserved - (l.quantity - held_quantity(l, true)), updated_at = now()
            FROM order_lines l
            WHERE l.order_id = \(order.rawValue) AND l.picked_short
              AND stock.store_id = \(store.rawValue) AND stock.product_id = l.product_id
            """, logger: logger)
        try await recomputeTotal(of: order, packaged: true, onlyIfShort: true, on: connection, logger: logger)
    }

    /// The total becomes what the lines now hold (`recompute_order_total`: `held_quantity`, each
    /// after the part of its coupon share that goes with those units), and the discount the sum
    /// of those parts. Packing short
    /// (`onlyIfShort`: only when a line was closed short) and removing restricted lines at the
    /// desk both come through here. Call with the order's stock rows locked.
    package static func recomputeTotal(
        of order: OrderID, packaged: Bool, onlyIfShort: Bool = false, on connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.run(
            """
            SELECT recompute_order_total(\(order.rawValue), \(packaged))
            WHERE NOT \(onlyIfShort) OR EXISTS (SELECT 1 FROM order_lines WHERE order_id = \(order.rawValue) AND picked_short)
            """, logger: logger)
    }

    /// Locks the coupon row of the order's coupon, if it has one with a limit in all (the only kind
    /// counted on its row, `place_order`): before its stock rows, the
    /// lock order of checkout (`place_order`: cart, coupon, stock), so a cancellation that gives
    /// the redemption back never deadlocks with a checkout redeeming the same coupon.
    package static func lockCoupon(of order: OrderID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            """
            SELECT 1 FROM coupons k
            WHERE k.id = (SELECT o.coupon_id FROM orders o WHERE o.id = \(order.rawValue)) AND k.redemption_limit IS NOT NULL
            FOR UPDATE
            """, logger: logger)
    }

    /// A cancelled (or expired) order gives its coupon redemption back: the redemption is
    /// released (which frees the customer's number of it) and the coupon's count goes down, in
    /// one statement inside the cancellation's transaction. Call with the coupon row locked
    /// (`lockCoupon`); an order without a coupon, or already released, changes nothing.
    package static func releaseRedemption(of order: OrderID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            """
            WITH released AS (
                UPDATE coupon_redemptions SET released_at = now()
                WHERE order_id = \(order.rawValue) AND released_at IS NULL
                RETURNING coupon_id)
            UPDATE coupons SET redeemed = coupons.redeemed - 1 FROM released
            WHERE coupons.id = released.coupon_id AND coupons.redemption_limit IS NOT NULL
            """, logger: logger)
    }

    /// What a paid order owes back: what was paid less what the customer now gets (nothing once
    /// cancelled, the packed total once packed short) less what was already paid back. Call
    /// after any change to the total or a cancellation, and after a payment or a refund; an
    /// order with no payment is left as it is. Owing nothing after a refund is `refunded`.
    package static func reconcileRefund(of order: OrderID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            """
            UPDATE orders o
            SET refund_due_amount = owed.amount,
                payment_status = CASE WHEN owed.amount > 0 THEN 'refund_due' WHEN owed.refunded > 0 THEN 'refunded' ELSE 'paid' END
            FROM (SELECT greatest(p.amount - CASE WHEN o2.status = 'cancelled' THEN 0 ELSE o2.total_amount END - back.refunded, 0)::int8
                         AS amount,
                         back.refunded
                  FROM payments p JOIN orders o2 ON o2.id = p.order_id,
                       LATERAL (SELECT coalesce(sum(r.amount), 0)::int8 AS refunded FROM refunds r WHERE r.order_id = p.order_id) back
                  WHERE p.order_id = \(order.rawValue)) AS owed
            WHERE o.id = \(order.rawValue)
            """, logger: logger)
    }

    package static func recordEvent(
        order: OrderID, store: StoreID, from: OrderStatus?, to: OrderStatus, actor: UserID?, reason: String?,
        on connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.run(
            """
            INSERT INTO order_events (store_id, order_id, from_status, to_status, actor_id, reason)
            VALUES (\(store.rawValue), \(order.rawValue), \(from?.rawValue), \(to.rawValue), \(actor?.rawValue), \(reason))
            """, logger: logger)
    }
}
