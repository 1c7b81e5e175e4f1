import Foundation
import Logging

/// Which totes an order was picked into (its most recent pick list), for the desk.
package enum ToteQueries {
    package static func totes(of order: OrderID, on connection: some SQLRunner, logger: Logger) async throws -> [String] {
        let rows = try await connection.run(
            """
            SELECT plo.tote FROM pick_list_orders plo JOIN pick_lists pl ON pl.id = plo.pick_list_id
            WHERE plo.order_id = \(order.rawValue)
            ORDER BY pl.created_at DESC LIMIT 1
            """, logger: logger)
        var totes: [String] = []
        for try await tote in rows.decode(String.self) { totes.append(tote) }
        return totes
    }
}
