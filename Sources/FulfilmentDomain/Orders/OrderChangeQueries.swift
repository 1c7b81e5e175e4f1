import Foundation
import Logging
import PostgresNIO

/// The SQL of changing an order's lines (`OrderChanges`): one call of `change_order_lines`.
package enum OrderChangeQueries {
    /// Applies `change` to `customer`'s order `id` inside the caller's transaction; true when
    /// anything changed. Refusals are `change_order_lines`'s (SQLSTATE FC000), mapped by
    /// `OrderError(databaseError:)`. A price not shown travels as -1 (an array binds no NULLs here).
    package static func apply(
        _ change: OrderChange, to id: OrderID, by customer: UserID, on connection: PostgresConnection, logger: Logger
    ) async throws -> Bool {
        let rows = try await connection.run(
            """
            SELECT change_order_lines(\(id.rawValue), \(customer.rawValue), \(change.lines.map(\.productID.rawValue))::uuid[],
                                      \(change.lines.map { Int32($0.quantity) })::int4[], \(change.lines.map { $0.shownPrice ?? -1 })::int8[])
            """, logger: logger)
        for try await changed in rows.decode(Bool.self) { return changed }
        throw OrderError.unexpectedlyMissing("change_order_lines' answer")
    }
}
