import Foundation
import Logging
import PostgresNIO

/// A product the store should count: picked short since its last count (migration 051).
package struct StockCheck: Sendable, Equatable {
    package var productID: ProductID
    package var name: String
    package var sku: String
    package var onHand: Int
    package var reserved: Int
    /// The latest short pick: when the shelf last disagreed with the count.
    package var askedAt: Date
    /// How many picks came up short since the last count.
    package var shortPicks: Int
}

/// The SQL of stock checks: read from the picks and the stock ledger, nothing stored.
package enum StockCheckQueries {
    /// The store's products picked short since their last count ('count' in the ledger, which
    /// every set of on hand writes), latest first; at most `limit`.
    package static func open(in scope: StoreScope, limit: Int, on client: PostgresClient, logger: Logger) async throws -> [StockCheck] {
        let rows = try await client.read(
            """
            SELECT p.id, p.name, p.sku, s.on_hand, s.reserved, k.asked_at, k.short_picks
            FROM (
                SELECT pk.product_id, max(pk.picked_at) AS asked_at, count(*) AS short_picks
                FROM picks pk
                WHERE pk.store_id = \(scope) AND pk.short
                  AND pk.picked_at > coalesce(
                      (SELECT max(m.at) FROM stock_movements m
                        WHERE m.store_id = pk.store_id AND m.product_id = pk.product_id AND m.reason = 'count'), '-infinity')
                GROUP BY pk.product_id
            ) k
            JOIN products p ON p.id = k.product_id
            JOIN stock s ON s.store_id = \(scope) AND s.product_id = k.product_id
            ORDER BY k.asked_at DESC, p.id
            LIMIT \(Int32(clamping: limit))
            """, logger: logger)
        var checks: [StockCheck] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            checks.append(
                StockCheck(
                    productID: ProductID(try r["id"].decode(UUID.self)), name: try r["name"].decode(String.self),
                    sku: try r["sku"].decode(String.self), onHand: Int(try r["on_hand"].decode(Int32.self)),
                    reserved: Int(try r["reserved"].decode(Int32.self)), askedAt: try r["asked_at"].decode(Date.self),
                    shortPicks: Int(try r["short_picks"].decode(Int64.self))))
        }
        return checks
    }
}
