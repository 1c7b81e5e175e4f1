import Foundation
import Logging
import PostgresNIO

/// The SQL of per-store stock: levels, locations, the reorder report and the stock ledger.
/// Every statement is bound to the caller's store (`StoreScope`): another store's stock is
/// simply not there.
package enum StockQueries {
    /// Puts the product at `location` (one call moves it from wherever it was), carrying it
    /// at the store with nothing on hand if it was not carried yet.
    package static func setLocation(
        _ location: LocationDraft?, product: ProductID, in scope: StoreScope, on database: Database, logger: Logger
    ) async throws {
        try await CatalogueError.mappingDatabaseErrors {
            try await database.transaction(logger: logger) { connection in
                var aisleID: UUID?
                if let location {
                    aisleID = try await connection.run(
                        "SELECT id FROM aisles WHERE store_id = \(scope) AND code = \(location.aisleCode)", logger: logger
                    ).decode(UUID.self).first { _ in true }
                    guard aisleID != nil else { throw CatalogueError.aisleNotFound(location.aisleCode) }
                }
                try await connection.run(
                    """
                    INSERT INTO stock (store_id, product_id, aisle_id, bay, shelf)
                    VALUES (\(scope), \(product.rawValue), \(aisleID), \(location?.bay), \(location?.shelf))
                    ON CONFLICT (store_id, product_id) DO UPDATE
                    SET aisle_id = EXCLUDED.aisle_id, bay = EXCLUDED.bay, shelf = EXCLUDED.shelf, updated_at = now()
                    """, logger: logger)
            }
        }
    }

    /// Takes the product out of its aisle; false when the store does not carry it.
    package static func clearLocation(product: ProductID, in scope: StoreScope, on client: PostgresClient, logger: Logger) async throws -> Bool {
        let rows = try await client.run(
            """
            UPDATE stock SET aisle_id = NULL, bay = NULL, shelf = NULL, updated_at = now()
            WHERE store_id = \(scope) AND product_id = \(product.rawValue)
            RETURNING product_id
            """, logger: logger)
        for try await _ in rows { return true }
        return false
    }

    /// The store's stock by product name; `lowOnly` keeps products at or below minimum supply.
    package static func list(
        in scope: StoreScope, lowOnly: Bool, limit: Int, cursor: String?, on client: PostgresClient, logger: Logger
    ) async throws -> Page<ProductRecord> {
        let after = try PageCursor.decode(cursor, as: PageCursor.Named.self)
        let rows = try await client.run(
            """
            SELECT \(unescaped: ProductQueries.columns), lower(p.name) AS sort_key
            FROM stock s
            JOIN products p ON p.id = s.product_id
            \(unescaped: ProductQueries.extraJoins)
            WHERE s.store_id = \(scope)
              AND (NOT \(lowOnly) OR s.on_hand <= s.min_supply)
              AND (\(after == nil) OR (lower(p.name), p.id) > (\(after?.n ?? ""), \(after?.id ?? UUID())))
            ORDER BY lower(p.name), p.id
            LIMIT \(limit + 1)
            """, logger: logger)
        var result: [(ProductRecord, String)] = []
        for try await row in rows {
            result.append((try ProductQueries.record(row), try row.makeRandomAccess()["sort_key"].decode(String.self)))
        }
        let page = Array(result.prefix(limit))
        let next = result.count > limit ? page.last.map { PageCursor.encode(PageCursor.Named(n: $0.1, id: $0.0.id.rawValue)) } : nil
        return Page(items: page.map(\.0), nextCursor: next)
    }
}

/// The stock ledger: every change to on hand a person makes, with why and who.
extension StockQueries {
    /// The product's stock row at the store, locked (created at 0 when the store did not carry it).
    package static func lock(
        product: ProductID, in scope: StoreScope, on connection: PostgresConnection, logger: Logger
    ) async throws -> (onHand: Int, reserved: Int) {
        _ = try await CatalogueError.mappingDatabaseErrors {
            try await connection.run(
                """
                INSERT INTO stock (store_id, product_id) VALUES (\(scope), \(product.rawValue))
                ON CONFLICT (store_id, product_id) DO NOTHING
                """, logger: logger)
        }
        let rows = try await connection.run(
            "SELECT on_hand, reserved FROM stock WHERE store_id = \(scope) AND product_id = \(product.rawValue) FOR UPDATE",
            logger: logger)
        for try await row in rows {
            let r = row.makeRandomAccess()
            return (Int(try r["on_hand"].decode(Int32.self)), Int(try r["reserved"].decode(Int32.self)))
        }
        throw CatalogueError.productNotFound
    }

    /// Writes on hand (and minimum supply, when given) and records the change in the ledger.
    package static func write(
        onHand: Int, delta: Int, reason: StockReason, note: String?, minSupply: Int?, product: ProductID, in scope: StoreScope,
        actor: UserID, on connection: PostgresConnection, logger: Logger
    ) async throws -> StockMovement {
        try await connection.run(
            """
            UPDATE stock SET on_hand = \(onHand), min_supply = coalesce(\(minSupply), min_supply), updated_at = now()
            WHERE store_id = \(scope) AND product_id = \(product.rawValue)
            """, logger: logger)
        let rows = try await connection.run(
            """
            INSERT INTO stock_movements (store_id, product_id, delta, reason, note, on_hand_after, actor_id)
            VALUES (\(scope), \(product.rawValue), \(delta), \(reason.rawValue), \(note), \(onHand), \(actor.rawValue))
            RETURNING id, at, (SELECT name FROM users WHERE id = \(actor.rawValue)) AS actor_name
            """, logger: logger)
        for try await row in rows {
            let r = row.makeRandomAccess()
            return StockMovement(
                id: try r["id"].decode(Int64.self), productID: product, delta: delta, reason: reason.rawValue, note: note, onHandAfter: onHand,
                actorID: actor, actorName: try r["actor_name"].decode(String?.self), at: try r["at"].decode(Date.self))
        }
        preconditionFailure("INSERT … RETURNING gave no row")
    }

    /// The ledger of one product at the store, newest first; `after` is the last id of the page before.
    package static func movements(
        of product: ProductID, in scope: StoreScope, limit: Int, after: Int64?, on client: PostgresClient, logger: Logger
    ) async throws -> Page<StockMovement> {
        let rows = try await client.run(
            """
            SELECT m.id, m.product_id, m.delta, m.reason, m.note, m.on_hand_after, m.actor_id, u.name AS actor_name, m.at, m.reserved_delta
            FROM stock_movements m LEFT JOIN users u ON u.id = m.actor_id
            WHERE m.store_id = \(scope) AND m.product_id = \(product.rawValue) AND (\(after == nil) OR m.id < \(after ?? 0))
            ORDER BY m.id DESC
            LIMIT \(limit + 1)
            """, logger: logger)
        var items: [StockMovement] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            items.append(
                StockMovement(
                    id: try r["id"].decode(Int64.self), productID: ProductID(try r["product_id"].decode(UUID.self)),
                    delta: Int(try r["delta"].decode(Int32.self)), reason: try r["reason"].decode(String.self),
                    note: try r["note"].decode(String?.self), onHandAfter: Int(try r["on_hand_after"].decode(Int32.self)),
                    actorID: try r["actor_id"].decode(UUID?.self).map(UserID.init), actorName: try r["actor_name"].decode(String?.self),
                    at: try r["at"].decode(Date.self), reservedDelta: Int(try r["reserved_delta"].decode(Int32.self))))
        }
        let page = Array(items.prefix(limit))
        return Page(items: page, nextCursor: items.count > limit ? page.last.map { String($0.id) } : nil)
    }
}
