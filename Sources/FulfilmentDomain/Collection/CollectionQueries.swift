import Foundation
import Logging
import PostgresNIO

/// The desk scan's two statements (`Collections`): the caller with the order a token names,
/// then `collect_order_viewed` (`sql/routines/collect_order_viewed.sql`), which decides and writes under its locks.
package enum CollectionQueries {
    /// The caller (admitted here, before anything this read is used for) and the order `id`
    /// names, in one statement; the order is nil when there is none (or no id: a token that
    /// failed its check, whose verdict is told after the caller's).
    package static func callerAndOrder(_ id: OrderID?, caller: Caller, on client: PostgresClient, logger: Logger) async throws
        -> (Identity, Order?)
    {
        let rows = try await client.run(
            """
            SELECT \(unescaped: Caller.columns), v.*
            FROM \(caller: caller) c LEFT JOIN order_view(\(id?.rawValue)) v ON true
            """, logger: logger)
        let row = rows.collect().first?.makeRandomAccess()
        let staff = try caller.admit(row)
        return (staff, try row.flatMap { try OrderQueries.order(view: $0) })
    }

    /// Hands the order over if `collect_order` (under its locks) finds it may be: of the scope's
    /// store, this very token, packed, paid, age checked. Whether it did, and the order as it
    /// then stands.
    package static func collect(
        _ id: OrderID, in scope: StoreScope, by staff: UserID, token text: String, idChecked: IDConfirmation.Method?,
        key: String? = nil, on client: PostgresClient, logger: Logger
    ) async throws -> (collected: Bool, order: Order?) {
        let rows =
            if let key {
                try await client.run(
                    """
                    SELECT w.collected, (w.o).*
                    FROM collect_order_keyed(\(id.rawValue), \(scope), \(staff.rawValue), \(text), \(idChecked?.rawValue), \(key)) w
                    """, logger: logger)
            } else {
                try await client.run(
                    """
                    SELECT w.collected, (w.o).*
                    FROM collect_order_viewed(\(id.rawValue), \(scope), \(staff.rawValue), \(text), \(idChecked?.rawValue)) w
                    """, logger: logger)
            }
        let row = rows.collect().first?.makeRandomAccess()
        let after = try row.flatMap { try OrderQueries.order(view: $0) }
        return (try row?["collected"].decode(Bool.self) == true, after)
    }

    /// The order numbered `number` at the scope's store whose customer's name has `surname` as
    /// one of its words (split on spaces, or on spaces and hyphens), as its end ("de la Cruz"),
    /// or as the whole name, case aside; with its current pickup code.
    package static func deskLookup(
        number: Int64, surname: String, in scope: StoreScope, on client: PostgresClient, logger: Logger
    ) async throws -> DeskFound? {
        let rows = try await client.read(
            """
            SELECT o.id, o.number, u.name, t.text
            FROM orders o
            JOIN users u ON u.id = o.customer_id
            JOIN pickup_tokens t ON t.order_id = o.id
            WHERE o.number = \(number) AND o.store_id = \(scope)
              AND (lower(\(surname)) = ANY (regexp_split_to_array(lower(btrim(u.name)), '[[:space:]]+')
                                            || regexp_split_to_array(lower(btrim(u.name)), '[[:space:]-]+'))
                   OR right(lower(btrim(u.name)), length(\(surname)) + 1) = ' ' || lower(\(surname))
                   OR lower(btrim(u.name)) = lower(\(surname)))
            """, logger: logger)
        for try await row in rows { return try found(row) }
        return nil
    }

    /// The order of the scope's store whose current token has this short code (the letters
    /// under the receipt's QR), with that token; nil when none has, or when two do (48 bits: a
    /// store would need millions of live receipts for two to share one, and then the desk asks
    /// for the number and name instead of guessing).
    package static func shortCodeLookup(
        _ code: String, in scope: StoreScope, on client: PostgresClient, logger: Logger
    ) async throws -> DeskFound? {
        let rows = try await client.read(
            """
            SELECT o.id, o.number, u.name, t.text
            FROM pickup_tokens t
            JOIN orders o ON o.id = t.order_id AND o.store_id = t.store_id
            JOIN users u ON u.id = o.customer_id
            WHERE t.store_id = \(scope) AND t.short_code = \(code)
            LIMIT 2
            """, logger: logger)
        var matches: [DeskFound] = []
        for try await row in rows { matches.append(try found(row)) }
        return matches.count == 1 ? matches[0] : nil
    }

    /// An order the desk found, from a row of `o.id, o.number, u.name, t.text`.
    private static func found(_ row: PostgresRow) throws -> DeskFound {
        let r = row.makeRandomAccess()
        return DeskFound(
            order: OrderID(try r["id"].decode(UUID.self)), number: try r["number"].decode(Int64.self),
            customerName: try r["name"].decode(String.self), token: try r["text"].decode(String.self))
    }
}
