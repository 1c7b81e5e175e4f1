import Foundation
import Logging
import PostgresNIO

/// The SQL of age checks: the record of who confirmed one (the order query reads it back).
enum IDCheckQueries {
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
