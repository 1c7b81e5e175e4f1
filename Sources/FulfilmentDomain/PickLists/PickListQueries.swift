import Foundation
import Logging
import PickList
import PostgresNIO

/// The SQL of pick lists, their orders and picks. Every statement that reads or locks a list
/// by its id binds the caller's `StoreScope`, so another store's list is simply not found.
package enum PickListQueries {
    /// The unique index that keeps an order on at most one open pick list; two lists created at
    /// once can race on it (see `PickLists.create`).
    package static let oneOpenListIndex = "pick_list_orders_one_open_list"

    /// Claims up to `limit` pending orders of the caller's store that are on no open pick list,
    /// those of the earliest pickup slots first (orders without a slot after them, oldest first).
    /// `SKIP LOCKED` means two staff creating pick lists at once never get the same order; the
    /// partial unique index on open pick-list orders backs that up.
    package static func claimOrders(
        in scope: StoreScope, limit: Int, only orderIDs: [OrderID]?, on connection: PostgresConnection, logger: Logger
    ) async throws -> [(id: OrderID, number: Int64)] {
        let restrict = orderIDs != nil
        let ids = (orderIDs ?? []).map(\.rawValue)
        let rows = try await connection.run(
            """
            SELECT o.id, o.number FROM orders o
            WHERE o.store_id = \(scope) AND o.status = 'pending'
              AND (NOT \(restrict) OR o.id = ANY(\(ids)))
              AND NOT EXISTS (SELECT 1 FROM pick_list_orders plo WHERE plo.order_id = o.id AND plo.open)
            ORDER BY o.pickup_slot_start NULLS LAST, o.created_at, o.id
            LIMIT \(limit)
            FOR UPDATE OF o SKIP LOCKED
            """, logger: logger)
        var claimed: [(id: OrderID, number: Int64)] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            claimed.append((OrderID(try r["id"].decode(UUID.self)), try r["number"].decode(Int64.self)))
        }
        return claimed
    }

    /// Stores a new pick list of the caller's store with its orders, each in the tote its order
    /// number gives it (the lowest number gets A).
    package static func insert(
        id: PickListID, in scope: StoreScope, createdBy: UserID, orders: [(id: OrderID, number: Int64)],
        on connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.run(
            "INSERT INTO pick_lists (id, store_id, created_by) VALUES (\(id.rawValue), \(scope), \(createdBy.rawValue))",
            logger: logger)
        for (index, order) in orders.sorted(by: { $0.number < $1.number }).enumerated() {
            try await connection.run(
                """
                INSERT INTO pick_list_orders (store_id, pick_list_id, order_id, tote)
                VALUES (\(scope), \(id.rawValue), \(order.id.rawValue), \(Tote.label(forIndex: index)))
                """, logger: logger)
        }
    }

    /// A pick list of the caller's store with its orders, lines and the store's locations for
    /// those products; nil when there is none such (another store's included).
    package static func pickList(
        _ id: PickListID, in scope: StoreScope, on connection: some SQLRunner, logger: Logger
    ) async throws -> PickListRecord? {
        var pickList: PickListRecord?
        let head = try await connection.run(
            """
            SELECT pl.id, pl.store_id, s.name AS store_name, pl.status, pl.created_at, pl.completed_at, c.time_zone
            FROM pick_lists pl JOIN stores s ON s.id = pl.store_id LEFT JOIN store_calendars c ON c.store_id = pl.store_id
            WHERE pl.id = \(id.rawValue) AND pl.store_id = \(scope)
            """, logger: logger)
        for try await row in head { pickList = try headRecord(row.makeRandomAccess()) }
        guard var pickList else { return nil }
        let orders = try await connection.run(
            """
            SELECT o.id, o.number, plo.tote, o.status, o.pickup_slot_start, o.pickup_slot_end
            FROM pick_list_orders plo JOIN orders o ON o.id = plo.order_id
            WHERE plo.pick_list_id = \(id.rawValue) ORDER BY plo.tote
            """, logger: logger)
        for try await row in orders { pickList.orders.append(try orderEntry(row.makeRandomAccess())) }
        let lines = try await connection.run(
            """
            SELECT l.order_id, o.number AS order_number, l.product_id, l.name, p.sku, p.barcode, l.quantity,
                   coalesce(l.picked_quantity, 0) AS picked_quantity, l.picked_short,
                   a.code AS aisle_code, a.name AS aisle_name, a.walk_order, a.zone, st.bay, st.shelf,
                   l.substitution, l.substitute_ids, l.substituted_quantity,
                   (SELECT coalesce(array_agg(sp.name ORDER BY array_position(l.substitute_ids, sp.id)), '{}')
                    FROM products sp WHERE sp.id = ANY (l.substitute_ids)) AS substitute_names
            FROM pick_list_orders plo
            JOIN orders o ON o.id = plo.order_id
            JOIN order_lines l ON l.order_id = plo.order_id
            JOIN products p ON p.id = l.product_id
            LEFT JOIN stock st ON st.store_id = l.store_id AND st.product_id = l.product_id
            LEFT JOIN aisles a ON a.id = st.aisle_id
            WHERE plo.pick_list_id = \(id.rawValue)
              -- Substitutes are picked when they are given; a line substituted whole has nothing left.
              AND l.substitute_for IS NULL AND l.quantity > 0
            ORDER BY l.order_id, l.product_id
            """, logger: logger)
        for row in lines.collect() { try addLine(row.makeRandomAccess(), to: &pickList) }
        return pickList
    }

    // The rows of ``pickList(_:in:on:logger:)``, decoded outside the async function: the release
    // build's optimiser (Swift 6.3, LLVM's coroutine splitting) crashed on them decoded inline.

    private static func headRecord(_ r: PostgresRandomAccessRow) throws -> PickListRecord {
        PickListRecord(
            id: PickListID(try r["id"].decode(UUID.self)), storeID: StoreID(try r["store_id"].decode(UUID.self)),
            storeName: try r["store_name"].decode(String.self),
            timeZone: try r["time_zone"].decode(String?.self).flatMap(TimeZone.init(identifier:)),
            status: try r["status"].decode(String.self), createdAt: try r["created_at"].decode(Date.self),
            completedAt: try r["completed_at"].decode(Date?.self), orders: [], lines: [], locations: [:])
    }

    private static func orderEntry(_ r: PostgresRandomAccessRow) throws -> PickListRecord.ToteOrder {
        let end = try r["pickup_slot_end"].decode(Date?.self)
        let slot = try r["pickup_slot_start"].decode(Date?.self).flatMap { start in end.map { PickupSlot(start: start, end: $0) } }
        return .init(
            orderID: OrderID(try r["id"].decode(UUID.self)), number: try r["number"].decode(Int64.self),
            tote: try r["tote"].decode(String.self), status: try r["status"].stored(OrderStatus.self).rawValue, pickupSlot: slot)
    }

    private static func addLine(_ r: PostgresRandomAccessRow, to pickList: inout PickListRecord) throws {
        // The line's substitution preference (issue 27).
        let preference = SubstitutionPreference(
            kind: try r["substitution"].stored(SubstitutionPreference.Kind.self),
            productIDs: try r["substitute_ids"].decode([UUID].self).map(ProductID.init))
        let productID = ProductID(try r["product_id"].decode(UUID.self))
        pickList.lines.append(
            .init(
                orderID: OrderID(try r["order_id"].decode(UUID.self)), orderNumber: try r["order_number"].decode(Int64.self),
                productID: productID, name: try r["name"].decode(String.self), sku: try r["sku"].decode(String.self),
                barcode: try r["barcode"].decode(String?.self), quantity: Int(try r["quantity"].decode(Int32.self)),
                picked: Int(try r["picked_quantity"].decode(Int32.self)), short: try r["picked_short"].decode(Bool.self),
                substitution: preference, substituteNames: try r["substitute_names"].decode([String].self),
                substituted: Int(try r["substituted_quantity"].decode(Int32.self))))
        if let code = try r["aisle_code"].decode(String?.self), let name = try r["aisle_name"].decode(String?.self),
            let walkOrder = try r["walk_order"].decode(Int32?.self), let zone = try r["zone"].stored(TemperatureZone?.self)
        {
            pickList.locations[PickList.ProductID(productID)] = ShelfLocation(
                aisle: Aisle(code: code, name: name, walkOrder: Int(walkOrder)), zone: zone,
                bay: Int(try r["bay"].decode(Int32?.self) ?? 1), shelf: try r["shelf"].decode(String?.self) ?? "")
        }
    }

    /// The caller's store's open pick lists, oldest first.
    package static func open(in scope: StoreScope, on client: PostgresClient, logger: Logger) async throws -> [PickListSummary] {
        let rows = try await client.run(
            """
            SELECT pl.id, pl.created_at, count(plo.order_id)::int AS order_count FROM pick_lists pl
            LEFT JOIN pick_list_orders plo ON plo.pick_list_id = pl.id
            WHERE pl.store_id = \(scope) AND pl.status = 'open'
            GROUP BY pl.id ORDER BY pl.created_at, pl.id
            """, logger: logger)
        var result: [PickListSummary] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            result.append(
                PickListSummary(
                    id: PickListID(try r["id"].decode(UUID.self)), createdAt: try r["created_at"].decode(Date.self),
                    orderCount: try r["order_count"].decode(Int.self)))
        }
        return result
    }

    /// Locks a pick list of the caller's store for completing it and returns its status; nil
    /// when there is none such (another store's included).
    package static func lockForCompletion(
        _ id: PickListID, in scope: StoreScope, on connection: PostgresConnection, logger: Logger
    ) async throws -> String? {
        let rows = try await connection.run(
            "SELECT status FROM pick_lists WHERE id = \(id.rawValue) AND store_id = \(scope) FOR UPDATE", logger: logger)
        var status: String?
        for try await value in rows.decode(String.self) { status = value }
        return status
    }

    /// Every stock row completing the list may touch, locked up front in product-id order: the
    /// one lock order checkout, cancellation and collection use, so none deadlock.
    package static func lockStock(of id: PickListID, store: StoreID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            """
            SELECT 1 FROM stock
            WHERE store_id = \(store.rawValue)
              AND product_id IN (SELECT l.product_id FROM order_lines l
                                 JOIN pick_list_orders plo ON plo.order_id = l.order_id WHERE plo.pick_list_id = \(id.rawValue))
            ORDER BY product_id
            FOR UPDATE
            """, logger: logger)
    }

    /// Closes the list: completed now, and its orders free to go on another list.
    package static func markCompleted(_ id: PickListID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            "UPDATE pick_lists SET status = 'completed', completed_at = now() WHERE id = \(id.rawValue)", logger: logger)
        try await connection.run("UPDATE pick_list_orders SET open = false WHERE pick_list_id = \(id.rawValue)", logger: logger)
    }

    /// Adds `quantity` to a line's picked count, never past what was ordered (guarded update),
    /// and only while the order is still pending on this open pick list: the order row is locked
    /// first, so a hand packaging or cancellation either lands before (and the pick is refused)
    /// or waits for the pick. A pick after packaging would change what the order holds of stock.
    package static func recordPick(
        on pickList: PickListID, store: StoreID, order: OrderID, product: ProductID, quantity: Int, short: Bool,
        by picker: UserID, on connection: PostgresConnection, logger: Logger
    ) async throws -> PickRecording {
        let states = try await connection.run(
            """
            SELECT o.status, coalesce(plo.open, false) AS on_open_list FROM orders o
            LEFT JOIN pick_list_orders plo ON plo.order_id = o.id AND plo.pick_list_id = \(pickList.rawValue)
            WHERE o.id = \(order.rawValue) AND o.store_id = \(store.rawValue)
            FOR NO KEY UPDATE OF o
            """, logger: logger)
        var state: (String, Bool)?
        for try await row in states {
            let r = row.makeRandomAccess()
            state = (try r["status"].stored(OrderStatus.self).rawValue, try r["on_open_list"].decode(Bool.self))
        }
        guard let (status, onOpenList) = state else { return .notOnList(status: nil) }
        guard status == OrderStatus.pending.rawValue, onOpenList else { return .notOnList(status: status) }
        let updated = try await connection.run(
            """
            UPDATE order_lines SET picked_quantity = coalesce(picked_quantity, 0) + \(quantity),
                                   picked_short = picked_short OR \(short)
            WHERE order_id = \(order.rawValue) AND product_id = \(product.rawValue)
              AND \(quantity) <= quantity - coalesce(picked_quantity, 0)
            RETURNING 1
            """, logger: logger)
        var changed = false
        for try await _ in updated { changed = true }
        guard changed else { return .overPick }
        try await connection.run(
            """
            INSERT INTO picks (store_id, pick_list_id, order_id, product_id, quantity, short, picked_by)
            VALUES (\(store.rawValue), \(pickList.rawValue), \(order.rawValue), \(product.rawValue), \(quantity), \(short), \(picker.rawValue))
            """, logger: logger)
        return .recorded
    }
}
