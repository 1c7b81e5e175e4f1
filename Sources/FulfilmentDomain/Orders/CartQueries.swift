import Foundation
import Logging
import PostgresNIO

/// The SQL of carts and cart items. A cart belongs to a customer and names one store; its
/// lines are kept when the store changes.
package enum CartQueries {

    /// One line for ``add(_:customer:on:logger:)``, as `add_to_cart` reads it.
    package struct Item: Encodable, Sendable {
        package var index: Int
        package var text: String
        package var productId: UUID?
        package var quantity: Int
    }

    /// Adds `items` to the customer's cart in one statement (`sql/routines/add_to_cart.sql`);
    /// nil when the customer has no store for a cart.
    package static func add(_ items: [Item], customer: UserID, on client: PostgresClient, logger: Logger) async throws -> CartAddition? {
        let json = String(decoding: try JSONEncoder().encode(items), as: UTF8.self)
        let rows = try await client.run("SELECT add_to_cart(\(customer.rawValue), \(json)::json)::text AS added", logger: logger)
        let data = Data(try rows.collect()[0].makeRandomAccess()["added"].decode(String.self).utf8)
        struct Refusal: Decodable { var code: String? }
        if try JSONDecoder().decode(Refusal.self, from: data).code != nil { return nil }
        return try JSONDecoder().decode(CartAddition.self, from: data)
    }

    package static func cart(customer: UserID, on connection: some SQLRunner, logger: Logger) async throws -> Cart {
        // The cart's store, or else the store the customer chose for browsing; then one row per
        // line (or one row of NULL lines for an empty cart): `sql/routines/cart_view.sql`.
        // With each line's regular price and sale end beside it (`Cart.showingSales`).
        let rows = try await connection.run(
            "SELECT v.*, \(unescaped: saleColumns) FROM cart_view(\(customer.rawValue)) v", logger: logger
        ).collect().map { $0.makeRandomAccess() }
        return try cart(viewRows: rows, lineDiscontinued: "discontinued").showingSales(rows)
    }

    /// Points the cart at `store` (creating the cart); its lines stay. An unknown store is
    /// `storeNotFound` (`OrderError`'s database mapping).
    package static func setStore(customer: UserID, store: StoreID, on client: PostgresClient, logger: Logger) async throws {
        _ = try await OrderError.mappingDatabaseErrors {
            try await client.run(
                """
                INSERT INTO carts (customer_id, store_id) VALUES (\(customer.rawValue), \(store.rawValue))
                ON CONFLICT (customer_id) DO UPDATE SET store_id = EXCLUDED.store_id, updated_at = now()
                """, logger: logger)
        }
    }

    /// Sets a line's quantity (0 removes it; the caller has checked its range) for the caller,
    /// admits them, and reads the cart as it then stands: one statement, which also resolves a
    /// presented token and writes only for a caller who will be admitted. The cart is created at
    /// the customer's chosen store when it does not exist yet.
    @discardableResult
    package static func setQuantity(
        caller: Caller, product: ProductID, quantity: Int, substitution: SubstitutionPreference? = nil, on database: Database,
        logger: Logger
    ) async throws -> Cart {
        // `set_cart_line` (`sql/routines/set_cart_line.sql`) makes or touches the cart row at the chosen store and
        // writes the line, only for a product that exists and is on sale, and only for a caller
        // this statement will admit; the answer says which held. `set_cart_line_viewed`
        // (`sql/routines/set_cart_line_viewed.sql`) adds the cart, one line a row, read after the write.
        // Its rows are `v`, as `cart_view`'s are, so ``saleColumns`` reads them as they are. Its
        // columns come after the caller's: the cart's `store_id` is the one read by name.
        let rows = try await database.retryingConflicts(logger: logger) {
            try await database.client.run(
                """
                SELECT \(unescaped: Caller.columns), v.*, \(unescaped: saleColumns)
                FROM \(caller: caller) c
                LEFT JOIN LATERAL set_cart_line_viewed(
                    \(admittedUser: caller), \(product.rawValue), \(Int32(quantity)), \(substitution?.kind.rawValue),
                    \(substitution.map { $0.productIDs.map(\.rawValue) })::uuid[]) v ON true
                """, logger: logger)
        }.collect().map { $0.makeRandomAccess() }
        _ = try caller.admit(rows.first)
        guard let row = rows.first else { throw OrderError.unexpectedlyMissing("set_cart_line_viewed's row") }
        // A removal answers "written" whatever was there: a product not in the cart is not an error.
        guard let discontinued = try row["discontinued"].decode(Bool?.self) else { throw OrderError.productNotFound }
        guard !discontinued else { throw OrderError.productDiscontinued(product) }
        guard try row["written"].decode(Bool.self) else { throw OrderError.noStoreChosen }
        return try cart(viewRows: rows, lineDiscontinued: "line_discontinued").showingSales(rows)
    }

    /// Removes a line; false when there is no such product (a product not in the cart is not an error).
    package static func removeItem(customer: UserID, product: ProductID, on client: PostgresClient, logger: Logger) async throws -> Bool {
        let rows = try await client.run(
            """
            WITH gone AS (
                DELETE FROM cart_items WHERE customer_id = \(customer.rawValue) AND product_id = \(product.rawValue)
            )
            SELECT 1 FROM products WHERE id = \(product.rawValue)
            """, logger: logger)
        var exists = false
        for try await _ in rows { exists = true }
        return exists
    }

    package static func clear(customer: UserID, on client: PostgresClient, logger: Logger) async throws {
        try await client.run("DELETE FROM cart_items WHERE customer_id = \(customer.rawValue)", logger: logger)
    }

    /// The cart from `cart_view`'s rows, read by name: the store and currency on every row, then
    /// one line a row, or one row of NULL lines for an empty cart. `lineDiscontinued` names the
    /// line's column: `cart_view`'s `discontinued`, which `set_cart_line_viewed` calls
    /// `line_discontinued` beside its own answer.
    static func cart(viewRows rows: [PostgresRandomAccessRow], lineDiscontinued: String) throws -> Cart {
        var store: (UUID, String)?
        var lines: [Cart.Line] = []
        var coupon: CartCoupon?
        for row in rows {
            // The cart's coupon (issue 26): on every row, read by name (`cart_coupon`).
            if coupon == nil, let json = try row["coupon_json"].decode(String?.self) {
                coupon = try JSONDecoder().decode(CartCoupon.self, from: Data(json.utf8))
            }
            if let id = try row["store_id"].decode(UUID?.self), let currency = try row["currency"].decode(String?.self) {
                store = (id, currency)
            }
            guard let product = try row["product_id"].decode(UUID?.self) else { continue }
            lines.append(
                Cart.Line(
                    productID: ProductID(product), name: try row["name"].decode(String.self),
                    unitPrice: try row["price_amount"].decode(Int64.self), quantity: Int(try row["quantity"].decode(Int32.self)),
                    available: Int(try row["available"].decode(Int32.self)), discontinued: try row[lineDiscontinued].decode(Bool.self),
                    discount: try row["line_discount"].decode(Int64.self),
                    substitution: SubstitutionPreference(
                        kind: try row["substitution"].stored(SubstitutionPreference.Kind?.self) ?? .none,
                        productIDs: (try row["substitute_ids"].decode([UUID]?.self) ?? []).map(ProductID.init))))
        }
        let currency = store?.1 ?? "JMD"
        // A problem's money (a minimum spend's shortfall) is in the coupon's currency, else the cart's.
        if var held = coupon, held.problem != nil, held.problem?.currency == nil {
            held.problem?.currency = held.currency ?? currency
            coupon = held
        }
        return Cart(storeID: store.map { StoreID($0.0) }, currency: currency, lines: lines, coupon: coupon)
    }
}
