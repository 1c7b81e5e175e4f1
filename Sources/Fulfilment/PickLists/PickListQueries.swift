import Foundation
import Logging
import PickList
import PostgresNIO

/// The SQL of pick batches, their orders and picks.
enum PickBatchQueries {
    /// Claims up to `limit` pending orders of `store` that are on no open batch, those of the
    /// earliest pickup slots first (orders without a slot after them, oldest first). `SKIP LOCKED`
    /// means two staff creating batches at once never get the same order; the partial unique
    /// index on open batch orders backs that up.
    static func claimOrders(
        store: StoreID, limit: Int, only orderIDs: [UUID]?, on connection: PostgresConnection, logger: Logger
    ) async throws -> [(UUID, Int64)] {
        let restrict = orderIDs != nil
        let ids = orderIDs ?? []
        let rows = try await connection.run(
            """
            SELECT o.id, o.number FROM orders o
            WHERE o.store_id = \(store.rawValue) AND o.status = 'pending'
              AND (NOT \(restrict) OR o.id = ANY(\(ids)))
              AND NOT EXISTS (SELECT 1 FROM pick_batch_orders b WHERE b.order_id = o.id AND b.open)
            ORDER BY o.pickup_slot_start NULLS LAST, o.created_at, o.id
            LIMIT \(limit)
            FOR UPDATE OF o SKIP LOCKED
            """, logger: logger)
        var claimed: [(UUID, Int64)] = []
        for try await row in rows.decode((UUID, Int64).self) { claimed.append(row) }
        return claimed
    }

    static func insertBatch(
        id: UUID, store: StoreID, createdBy: UserID, orders: [(UUID, Int64)], on connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.run(
            "INSERT INTO pick_batches (id, store_id, created_by) VALUES (\(id), \(store.rawValue), \(createdBy.rawValue))",
            logger: logger)
        for (index, order) in orders.sorted(by: { $0.1 < $1.1 }).enumerated() {
            try await connection.run(
                """
                INSERT INTO pick_batch_orders (store_id, batch_id, order_id, tote)
                VALUES (\(store.rawValue), \(id), \(order.0), \(Tote.label(forIndex: index)))
                """, logger: logger)
        }
    }

    /// A batch with its orders, lines and the store's locations for those products.
    static func batch(id: UUID, on connection: some SQLRunner, logger: Logger) async throws -> PickBatch? {
        var batch: PickBatch?
        let head = try await connection.run(
            """
            SELECT b.id, b.store_id, s.name, b.status, b.created_at, b.completed_at, c.time_zone
            FROM pick_batches b JOIN stores s ON s.id = b.store_id LEFT JOIN store_calendars c ON c.store_id = b.store_id
            WHERE b.id = \(id)
            """, logger: logger)
        for try await row in head.decode((UUID, UUID, String, String, Date, Date?, String?).self) {
            batch = PickBatch(
                id: row.0, storeID: StoreID(row.1), storeName: row.2, timeZone: row.6.flatMap(TimeZone.init(identifier:)),
                status: row.3, createdAt: row.4, completedAt: row.5, orders: [], lines: [], locations: [:])
        }
        guard var batch else { return nil }
        let orders = try await connection.run(
            """
            SELECT o.id, o.number, bo.tote, o.status, o.pickup_slot_start, o.pickup_slot_end
            FROM pick_batch_orders bo JOIN orders o ON o.id = bo.order_id
            WHERE bo.batch_id = \(id) ORDER BY bo.tote
            """, logger: logger)
        for try await row in orders.decode((UUID, Int64, String, String, Date?, Date?).self) {
            let slot = row.4.flatMap { start in row.5.map { PickupSlot(start: start, end: $0) } }
            batch.orders.append(.init(orderID: row.0, number: row.1, tote: row.2, status: row.3, pickupSlot: slot))
        }
        let lines = try await connection.run(
            """
            SELECT l.order_id, o.number, l.product_id, l.name, p.sku, p.barcode, l.quantity,
                   coalesce(l.picked_quantity, 0), l.picked_short,
                   a.code, a.name, a.walk_order, a.zone, st.bay, st.shelf
            FROM pick_batch_orders bo
            JOIN orders o ON o.id = bo.order_id
            JOIN order_lines l ON l.order_id = bo.order_id
            JOIN products p ON p.id = l.product_id
            LEFT JOIN stock st ON st.store_id = l.store_id AND st.product_id = l.product_id
            LEFT JOIN aisles a ON a.id = st.aisle_id
            WHERE bo.batch_id = \(id)
            ORDER BY l.order_id, l.product_id
            """, logger: logger)
        for try await row in lines.decode(
            (UUID, Int64, UUID, String, String, String?, Int32, Int32, Bool, String?, String?, Int32?, String?, Int32?, String?).self)
        {
            batch.lines.append(
                .init(
                    orderID: row.0, orderNumber: row.1, productID: row.2, name: row.3, sku: row.4, barcode: row.5,
                    quantity: Int(row.6), picked: Int(row.7), short: row.8))
            if let code = row.9, let name = row.10, let walkOrder = row.11, let zone = row.12.flatMap(TemperatureZone.init) {
                batch.locations[PickList.ProductID(row.2.uuidString.lowercased())] = ShelfLocation(
                    aisle: Aisle(code: code, name: name, walkOrder: Int(walkOrder)), zone: zone,
                    bay: Int(row.13 ?? 1), shelf: row.14 ?? "")
            }
        }
        return batch
    }

    static func open(store: StoreID, on client: PostgresClient, logger: Logger) async throws -> [(UUID, Date, Int)] {
        let rows = try await client.run(
            """
            SELECT b.id, b.created_at, count(bo.order_id)::int FROM pick_batches b
            LEFT JOIN pick_batch_orders bo ON bo.batch_id = b.id
            WHERE b.store_id = \(store.rawValue) AND b.status = 'open'
            GROUP BY b.id ORDER BY b.created_at, b.id
            """, logger: logger)
        var result: [(UUID, Date, Int)] = []
        for try await row in rows.decode((UUID, Date, Int).self) { result.append(row) }
        return result
    }

    /// Adds `quantity` to a line's picked count, never past what was ordered (guarded update),
    /// and only while the order is still pending on this open pick list: the order row is locked
    /// first, so a hand packaging or cancellation either lands before (and the pick is refused)
    /// or waits for the pick. A pick after packaging would change what the order holds of stock.
    static func recordPick(
        batch: UUID, store: StoreID, order: UUID, product: UUID, quantity: Int, short: Bool, by picker: UserID,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> PickRecording {
        let states = try await connection.run(
            """
            SELECT o.status, coalesce(bo.open, false) FROM orders o
            LEFT JOIN pick_batch_orders bo ON bo.order_id = o.id AND bo.batch_id = \(batch)
            WHERE o.id = \(order) AND o.store_id = \(store.rawValue)
            FOR NO KEY UPDATE OF o
            """, logger: logger)
        var state: (String, Bool)?
        for try await row in states.decode((String, Bool).self) { state = row }
        guard let (status, onOpenList) = state else { return .notOnList(status: nil) }
        guard status == OrderStatus.pending.rawValue, onOpenList else { return .notOnList(status: status) }
        let updated = try await connection.run(
            """
            UPDATE order_lines SET picked_quantity = coalesce(picked_quantity, 0) + \(quantity),
                                   picked_short = picked_short OR \(short)
            WHERE order_id = \(order) AND product_id = \(product)
              AND \(quantity) <= quantity - coalesce(picked_quantity, 0)
            RETURNING 1
            """, logger: logger)
        var changed = false
        for try await _ in updated { changed = true }
        guard changed else { return .overPick }
        try await connection.run(
            """
            INSERT INTO picks (store_id, batch_id, order_id, product_id, quantity, short, picked_by)
            VALUES (\(store.rawValue), \(batch), \(order), \(product), \(quantity), \(short), \(picker.rawValue))
            """, logger: logger)
        return .recorded
    }

    enum PickRecording {
        case recorded
        /// Someone else's pick landed in between and this one would now be too many.
        case overPick
        /// The order left the list (packaged or cancelled by hand, or the list was completed).
        case notOnList(status: String?)
    }
}
