import Logging
import PostgresNIO

/// The demo store's coupon (issue 26): 10 % off a cart of JMD 2,000.00 or more, once per
/// customer, loaded with the demo store in its one transaction and printed with the demo logins.
public enum DemoCoupons {
    public static let code = "WELCOME10"
    public static let basisPoints = 1_000
    public static let minimumSpend: Int64 = 200_000
    public static let description = "10 % off your first order of JMD 2,000.00 or more"

    package static func insert(store: StoreID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            """
            INSERT INTO coupons (store_id, code, description, kind, percent_basis_points, currency, minimum_spend, per_customer_limit)
            SELECT \(store.rawValue), \(code), \(description), 'percent', \(Int32(basisPoints)), s.currency, \(minimumSpend), 1
            FROM stores s WHERE s.id = \(store.rawValue)
            """, logger: logger)
    }
}
