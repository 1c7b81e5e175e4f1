import Foundation
import Logging
import PostgresNIO

/// The SQL of coupons: making, listing and ending them (a store's bound to the caller's
/// `StoreScope`, the chain's to `store_id IS NULL`), and putting one on a cart
/// (`apply_cart_coupon` in sql/routines).
package enum CouponQueries {
    /// A coupon's columns, read by name (`coupon(from:)`), with its state now and its cursor key.
    private static let columns = """
        c.id, c.store_id, c.code, c.description, c.kind, c.percent_basis_points, c.amount_off, c.currency::text AS currency,
        c.minimum_spend, c.valid_from, c.valid_until, c.redemption_limit, c.per_customer_limit, c.product_ids, c.categories,
        CASE WHEN c.redemption_limit IS NULL  -- counted on its row only with a limit (place_order)
             THEN (SELECT count(*) FROM coupon_redemptions r WHERE r.coupon_id = c.id AND r.released_at IS NULL)::int
             ELSE c.redeemed END AS redeemed,
        c.created_at, c.ended_at,
        CASE WHEN c.ended_at IS NOT NULL THEN 'ended' WHEN c.valid_until <= now() THEN 'expired'
             WHEN c.valid_from > now() THEN 'upcoming' ELSE 'live' END AS state,
        (extract(epoch FROM c.created_at) * 1000000)::int8 AS cursor_t
        """

    /// The currency of the caller's store.
    package static func currency(of scope: StoreScope, on client: PostgresClient, logger: Logger) async throws -> String? {
        let rows = try await client.run("SELECT currency::text FROM stores WHERE id = \(scope)", logger: logger)
        for try await currency in rows.decode(String.self) { return currency }
        return nil
    }

    /// Makes a coupon for `owner`; nil when one of its products does not exist. A code taken in
    /// its scope is `CouponError.codeTaken` (the unique indexes, 23505).
    package static func create(_ draft: CouponDraft, owner: CouponOwner, by user: UserID, on client: PostgresClient, logger: Logger) async throws
        -> Coupon?
    {
        let store: UUID? =
            switch owner {
            case .store(let scope): scope.store?.rawValue
            case .chain: nil
            }
        let (kind, points, amount): (String, Int32?, Int64?) =
            switch draft.off {
            case .percent(let basisPoints): ("percent", Int32(basisPoints), nil)
            case .amount(let amount): ("amount", nil, amount)
            }
        let products = draft.productIDs.map(\.rawValue)
        let rows = try await CouponError.mappingDatabaseErrors {
            try await client.run(
                """
                WITH made AS (
                    INSERT INTO coupons (store_id, code, description, kind, percent_basis_points, amount_off, currency, minimum_spend,
                                         valid_from, valid_until, redemption_limit, per_customer_limit, product_ids, categories, created_by)
                    SELECT \(store), \(draft.code), \(draft.description), \(kind), \(points), \(amount), \(draft.currency),
                           \(draft.minimumSpend), \(draft.validFrom), \(draft.validUntil), \(draft.redemptionLimit.map(Int32.init)),
                           \(draft.perCustomerLimit.map(Int32.init)), \(products)::uuid[], \(draft.categories)::text[], \(user.rawValue)
                    WHERE (SELECT count(*) FROM products p WHERE p.id = ANY (\(products)::uuid[])) = \(products.count)
                    RETURNING *
                )
                SELECT \(unescaped: columns) FROM made c
                """, logger: logger)
        }
        return try rows.collect().first.map { try coupon(from: $0.makeRandomAccess()) }
    }

    /// A page of `owner`'s coupons, newest first; a store's list holds the chain's too.
    package static func list(owner: CouponOwner, limit: Int, cursor: String?, on client: PostgresClient, logger: Logger) async throws -> Page<Coupon>
    {
        let after = try PageCursor.decode(cursor, as: PageCursor.Dated.self)
        let rows = try await client.run(
            """
            SELECT \(unescaped: columns) FROM coupons c
            WHERE (\(owner, column: "c.store_id") OR (\(owner != .chain) AND c.store_id IS NULL))
              AND (\(after == nil) OR ((extract(epoch FROM c.created_at) * 1000000)::int8, c.id)
                                      < (\(after?.t ?? 0), \(after?.id ?? UUID())))
            ORDER BY c.created_at DESC, c.id DESC
            LIMIT \(limit + 1)
            """, logger: logger)
        var items: [(Coupon, Int64)] = []
        for row in rows.collect() {
            let row = row.makeRandomAccess()
            items.append((try coupon(from: row), try row["cursor_t"].decode(Int64.self)))
        }
        let page = Array(items.prefix(limit))
        let next = items.count > limit ? page.last.map { PageCursor.encode(PageCursor.Dated(t: $0.1, id: $0.0.id.rawValue)) } : nil
        return Page(items: page.map(\.0), nextCursor: next)
    }

    package enum Ending {
        case ended(Coupon)
        case alreadyEnded
        case notFound
    }

    /// Ends one of `owner`'s coupons now.
    package static func end(_ id: CouponID, owner: CouponOwner, by user: UserID, on client: PostgresClient, logger: Logger) async throws -> Ending {
        let rows = try await client.run(
            """
            WITH target AS (
                SELECT c.id, c.ended_at FROM coupons c WHERE c.id = \(id.rawValue) AND \(owner, column: "c.store_id") FOR UPDATE
            ),
            ended AS (
                UPDATE coupons c SET ended_at = now(), ended_by = \(user.rawValue)
                FROM target t WHERE c.id = t.id AND t.ended_at IS NULL
                RETURNING c.*
            )
            SELECT (SELECT count(*) FROM target) AS found, c.* FROM (SELECT 1) AS one
            LEFT JOIN (SELECT \(unescaped: columns) FROM ended c) AS c ON true
            """, logger: logger)
        guard let row = rows.collect().first?.makeRandomAccess() else { return .notFound }
        guard try row["found"].decode(Int64.self) > 0 else { return .notFound }
        guard try row["id"].decode(UUID?.self) != nil else { return .alreadyEnded }
        return .ended(try coupon(from: row))
    }

    /// Puts the coupon with `code` on the customer's cart, or answers why not (`apply_cart_coupon`).
    package static func apply(
        code: String, customer: UserID, limit: Int, windowSeconds: Int, on client: PostgresClient, logger: Logger
    ) async throws -> CouponRefusal? {
        let rows = try await client.run(
            "SELECT apply_cart_coupon(\(customer.rawValue), \(code), \(Int32(limit)), \(Int32(windowSeconds)))::text",
            logger: logger)
        for try await answer in rows.decode(String?.self) {
            guard let answer else { return nil }
            return try JSONDecoder().decode(CouponRefusal.self, from: Data(answer.utf8))
        }
        return nil
    }

    /// Takes the coupon off the customer's cart.
    package static func remove(customer: UserID, on client: PostgresClient, logger: Logger) async throws {
        try await client.run("UPDATE carts SET coupon_id = NULL WHERE customer_id = \(customer.rawValue)", logger: logger)
    }

    private static func coupon(from row: PostgresRandomAccessRow) throws -> Coupon {
        let off: Coupon.Off =
            if let points = try row["percent_basis_points"].decode(Int32?.self) {
                .percent(basisPoints: Int(points))
            } else {
                .amount(try row["amount_off"].decode(Int64.self))
            }
        return Coupon(
            id: CouponID(try row["id"].decode(UUID.self)), store: try row["store_id"].decode(UUID?.self).map(StoreID.init),
            code: try row["code"].decode(String.self), description: try row["description"].decode(String.self), off: off,
            currency: try row["currency"].decode(String?.self), minimumSpend: try row["minimum_spend"].decode(Int64?.self),
            validFrom: try row["valid_from"].decode(Date?.self), validUntil: try row["valid_until"].decode(Date?.self),
            redemptionLimit: try row["redemption_limit"].decode(Int32?.self).map(Int.init),
            perCustomerLimit: try row["per_customer_limit"].decode(Int32?.self).map(Int.init),
            productIDs: try row["product_ids"].decode([UUID].self).map(ProductID.init),
            categories: try row["categories"].decode([String].self), redeemed: Int(try row["redeemed"].decode(Int32.self)),
            state: try row["state"].stored(Coupon.State.self),
            createdAt: try row["created_at"].decode(Date.self), endedAt: try row["ended_at"].decode(Date?.self))
    }
}

extension CouponError: DatabaseErrorMapping {
    package init?(databaseError error: any Error) {
        switch error.sqlState {
        case SQLState.uniqueViolation? where ["coupons_store_code", "coupons_chain_code"].contains(error.constraintName):
            self = .codeTaken
        default: return nil
        }
    }
}

extension PostgresQuery.StringInterpolation {
    /// `column = <the caller's store>` for a store's coupons, `column IS NULL` for the chain's.
    /// `column` is the statement's own text (a literal), never a client's.
    package mutating func appendInterpolation(_ owner: CouponOwner, column: StaticString) {
        switch owner {
        case .store(let scope):
            appendInterpolation(unescaped: "\(column) = ")
            appendInterpolation(scope)
        case .chain:
            appendInterpolation(unescaped: "\(column) IS NULL")
        }
    }
}
