import Foundation
import Logging
import PostgresNIO

/// Why on hand changed, as a manager says it. Sales and reservations are not here: they are
/// the orders themselves.
enum StockReason: String, Sendable, CaseIterable {
    case received, damaged, expired, returned, count, correction, `import`
}

/// A change to on hand as a delta (`+24 received`, `-2 damaged`), so two people adjusting at
/// once both count, and a collection in between is never undone.
struct StockAdjustment: Sendable, Equatable {
    /// Bounds on one adjustment and on what on hand may become: far beyond any shelf, well
    /// inside a 32-bit column, so no sum can overflow.
    static let limit = 1_000_000_000

    var delta: Int
    var reason: StockReason
    var note: String?

    init(delta: Int, reason: StockReason, note: String?) throws(CatalogueError) {
        // 0 is allowed: it records a check that changed nothing (a count that matched).
        guard (-Self.limit...Self.limit).contains(delta) else {
            throw .invalidField("delta", "The change must be a whole number from -\(Self.limit) to \(Self.limit).")
        }
        guard reason != .import else { throw .invalidField("reason", "'import' is kept for the CSV import.") }
        let note = note?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let note, note.count > 500 { throw .invalidField("note", "A note is at most 500 characters.") }
        self.delta = delta
        self.reason = reason
        self.note = note?.isEmpty == true ? nil : note
    }
}

/// One entry of the stock ledger.
struct StockMovement: Sendable, Equatable {
    var id: Int64
    var productID: UUID
    var delta: Int
    var reason: String
    var note: String?
    var onHandAfter: Int
    var actorID: UUID?
    var actorName: String?
    var at: Date
}

/// The SQL of the stock ledger: adjustments, conditional sets, and reading the history.
enum StockLedger {
    /// Applies `adjustment` to on hand, starting to carry the product at 0 when the store did
    /// not, and records it. Refused when on hand would fall below what open orders reserve.
    static func adjust(
        _ adjustment: StockAdjustment, store: UUID, product: UUID, by actor: UserID, on database: Database, logger: Logger
    ) async throws -> StockMovement {
        try await database.transaction(logger: logger) { connection in
            let current = try await lock(store: store, product: product, on: connection, logger: logger)
            let after = current.onHand + adjustment.delta
            guard after >= current.reserved else { throw CatalogueError.stockBelowReserved(reserved: current.reserved) }
            guard after <= StockAdjustment.limit else {
                throw CatalogueError.onHandTooLarge(limit: StockAdjustment.limit)
            }
            return try await write(
                onHand: after, delta: adjustment.delta, reason: adjustment.reason, note: adjustment.note, minSupply: nil,
                store: store, product: product, actor: actor, on: connection, logger: logger)
        }
    }

    /// Sets on hand (a count) and minimum supply, only if on hand is still `expected`, the
    /// figure the manager saw: otherwise 409 `stock_changed` and nothing is written.
    static func set(
        _ level: StockLevel, expected: Int, store: UUID, product: UUID, by actor: UserID, on database: Database, logger: Logger
    ) async throws {
        try await database.transaction(logger: logger) { connection in
            let current = try await lock(store: store, product: product, on: connection, logger: logger)
            guard current.onHand == expected else { throw CatalogueError.stockChanged(onHand: current.onHand, expected: expected) }
            guard level.onHand >= current.reserved else { throw CatalogueError.stockBelowReserved(reserved: current.reserved) }
            _ = try await write(
                onHand: level.onHand, delta: level.onHand - current.onHand, reason: .count, note: nil, minSupply: level.minSupply,
                store: store, product: product, actor: actor, on: connection, logger: logger)
        }
    }

    /// The ledger of one product at one store, newest first.
    static func movements(
        store: UUID, product: UUID, limit: Int, cursor: String?, on client: PostgresClient, logger: Logger
    ) async throws -> Page<StockMovement> {
        let after = try cursor.flatMap { $0.isEmpty ? nil : $0 }.map { text throws(CatalogueError) in
            guard let id = Int64(text), id > 0 else { throw CatalogueError.invalidCursor }
            return id
        }
        let rows = try await client.run(
            """
            SELECT m.id, m.product_id, m.delta, m.reason, m.note, m.on_hand_after, m.actor_id, u.name, m.at
            FROM stock_movements m LEFT JOIN users u ON u.id = m.actor_id
            WHERE m.store_id = \(store) AND m.product_id = \(product) AND (\(after == nil) OR m.id < \(after ?? 0))
            ORDER BY m.id DESC
            LIMIT \(limit + 1)
            """, logger: logger)
        var items: [StockMovement] = []
        for try await row in rows.decode((Int64, UUID, Int32, String, String?, Int32, UUID?, String?, Date).self) {
            items.append(StockMovement(
                id: row.0, productID: row.1, delta: Int(row.2), reason: row.3, note: row.4, onHandAfter: Int(row.5),
                actorID: row.6, actorName: row.7, at: row.8))
        }
        let page = Array(items.prefix(limit))
        return Page(items: page, nextCursor: items.count > limit ? page.last.map { String($0.id) } : nil)
    }

    /// The product's stock row at the store, locked (created at 0 when the store did not carry it).
    private static func lock(
        store: UUID, product: UUID, on connection: PostgresConnection, logger: Logger
    ) async throws -> (onHand: Int, reserved: Int) {
        do {
            try await connection.run(
                """
                INSERT INTO stock (store_id, product_id) VALUES (\(store), \(product))
                ON CONFLICT (store_id, product_id) DO NOTHING
                """, logger: logger)
        } catch {
            throw StockQueries.mapped(error)
        }
        let rows = try await connection.run(
            "SELECT on_hand, reserved FROM stock WHERE store_id = \(store) AND product_id = \(product) FOR UPDATE",
            logger: logger)
        for try await (onHand, reserved) in rows.decode((Int32, Int32).self) { return (Int(onHand), Int(reserved)) }
        throw CatalogueError.productNotFound
    }

    private static func write(
        onHand: Int, delta: Int, reason: StockReason, note: String?, minSupply: Int?, store: UUID, product: UUID,
        actor: UserID, on connection: PostgresConnection, logger: Logger
    ) async throws -> StockMovement {
        try await connection.run(
            """
            UPDATE stock SET on_hand = \(onHand), min_supply = coalesce(\(minSupply), min_supply), updated_at = now()
            WHERE store_id = \(store) AND product_id = \(product)
            """, logger: logger)
        let rows = try await connection.run(
            """
            INSERT INTO stock_movements (store_id, product_id, delta, reason, note, on_hand_after, actor_id)
            VALUES (\(store), \(product), \(delta), \(reason.rawValue), \(note), \(onHand), \(actor.rawValue))
            RETURNING id, at, (SELECT name FROM users WHERE id = \(actor.rawValue))
            """, logger: logger)
        for try await (id, at, name) in rows.decode((Int64, Date, String?).self) {
            return StockMovement(
                id: id, productID: product, delta: delta, reason: reason.rawValue, note: note, onHandAfter: onHand,
                actorID: actor.rawValue, actorName: name, at: at)
        }
        throw APIError.internal
    }
}
