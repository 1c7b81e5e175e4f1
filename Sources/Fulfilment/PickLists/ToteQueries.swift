import Foundation
import Logging

/// Which totes an order was picked into (its most recent pick list), for the desk.
enum ToteQueries {
    static func totes(of order: OrderID, on connection: some SQLRunner, logger: Logger) async throws -> [String] {
        let rows = try await connection.run(
            """
            SELECT bo.tote FROM pick_list_orders bo JOIN pick_lists b ON b.id = bo.pick_list_id
            WHERE bo.order_id = \(order.rawValue)
            ORDER BY b.created_at DESC LIMIT 1
            """, logger: logger)
        var totes: [String] = []
        for try await tote in rows.decode(String.self) { totes.append(tote) }
        return totes
    }
}
