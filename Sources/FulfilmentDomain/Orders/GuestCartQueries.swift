import Foundation
import Logging
import PostgresNIO

/// The SQL of visitors' carts (`guest_carts`, `guest_cart_items`, migration 047): each
/// statement is one routine of `sql/routines/` (`guest_cart_view`, `set_guest_cart_line`,
/// `merge_guest_cart`) or one bound statement here.
package enum GuestCartQueries {
    package static func cart(tokenHash: [UInt8], store: StoreID?, on client: PostgresClient, logger: Logger) async throws -> Cart {
        let rows = try await client.read(
            """
            SELECT v.*, \(unescaped: CartQueries.saleColumns)
              FROM guest_cart_view(\(Data(tokenHash)), \(store?.rawValue)::uuid) v
            """, logger: logger
        ).collect().map { $0.makeRandomAccess() }
        return try CartQueries.cart(viewRows: rows, lineDiscontinued: "discontinued").showingSales(rows)
    }

    package static func setLine(
        tokenHash: [UInt8], store: StoreID, address: String, product: ProductID, quantity: Int, add: Bool, on client: PostgresClient,
        logger: Logger
    ) async throws -> String {
        let rows = try await client.run(
            """
            SELECT set_guest_cart_line(\(Data(tokenHash)), \(store.rawValue), \(address), \(product.rawValue), \(Int32(quantity)), \(add)) AS code
            """, logger: logger)
        return try rows.collect()[0].makeRandomAccess()["code"].decode(String.self)
    }

    package static func setStore(_ store: StoreID, tokenHash: [UInt8], on client: PostgresClient, logger: Logger) async throws {
        _ = try await OrderError.mappingDatabaseErrors {
            try await client.run(
                "UPDATE guest_carts SET store_id = \(store.rawValue), updated_at = now() WHERE token_hash = \(Data(tokenHash))",
                logger: logger
            ).collect()
        }
    }

    package static func merge(tokenHash: [UInt8], into customer: UserID, on client: PostgresClient, logger: Logger) async throws
        -> CartAddition?
    {
        let rows = try await client.run(
            "SELECT merge_guest_cart(\(customer.rawValue), \(Data(tokenHash)))::text AS merged", logger: logger)
        guard let json = try rows.collect()[0].makeRandomAccess()["merged"].decode(String?.self) else { return nil }
        return try JSONDecoder().decode(CartAddition.self, from: Data(json.utf8))
    }
}
