import Foundation
import Logging
import PostgresNIO

/// The SQL of age checks: what an order requires, and the record of who confirmed it.
enum IDCheckQueries {
    /// The order's age check, or nil when none of its remaining lines is restricted and no
    /// check was recorded.
    static func idCheck(of order: OrderID, on connection: some SQLRunner, logger: Logger) async throws -> IDCheck? {
        let rows = try await connection.run(
            """
            SELECT (SELECT max(minimum_age) FROM order_lines WHERE order_id = \(order.rawValue) AND removed_at IS NULL),
                   c.minimum_age, c.method, c.confirmed_by, u.name, c.confirmed_at
            FROM (SELECT 1) AS one
            LEFT JOIN id_checks c ON c.order_id = \(order.rawValue)
            LEFT JOIN users u ON u.id = c.confirmed_by
            """, logger: logger)
        for try await row in rows.decode((Int?, Int?, String?, UUID?, String?, Date?).self) {
            if let age = row.1, let method = row.2.flatMap(IDConfirmation.Method.init(rawValue:)), let by = row.3, let at = row.5 {
                return IDCheck(
                    minimumAge: age,
                    confirmation: IDConfirmation(method: method, confirmedBy: UserID(by), confirmedByName: row.4 ?? "staff", confirmedAt: at))
            }
            return row.0.map { IDCheck(minimumAge: $0, confirmation: nil) }
        }
        return nil
    }

    static func record(
        order: OrderID, store: StoreID, minimumAge: Int, method: IDConfirmation.Method, by staff: UserID,
        on connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.run(
            """
            INSERT INTO id_checks (order_id, store_id, minimum_age, method, confirmed_by)
            VALUES (\(order.rawValue), \(store.rawValue), \(minimumAge), \(method.rawValue), \(staff.rawValue))
            """, logger: logger)
    }
}
