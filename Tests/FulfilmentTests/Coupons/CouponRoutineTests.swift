import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// The SQL of coupons against the Swift it must agree with: percentage_of is Money.percentage
/// on the same amounts, and coupon_discounts splits a coupon exactly over the lines.
@Suite("Coupon routines: percentage_of is Money.percentage; coupon_discounts shares add up exactly")
struct CouponRoutineTests {
    @Test("percentage_of answers Money.percentage on the same halves, extremes and points")
    func percentageOfAgreesWithSwift() async throws {
        let amounts: [Int64] = [
            0, 1, 3, 5, 125, 126, 135, 80_100, 80_300, 99_999, 123_457, Money.maximumPrice, -125, -135, Int64.max / 10_001,
            4_611_686_018_427_387_903, .max, .min,
        ]
        let points = [0, 1, 5_000, 1_000, 1_250, 3_333, 9_999, 10_000]
        let pairs = amounts.flatMap { amount in points.map { (amount, $0) } }
        try await withApp { app in
            let rows = try await sql(
                """
                SELECT u.a, u.p, percentage_of(u.a, u.p::int)
                FROM unnest($1::bigint[], $2::int[]) AS u(a, p)
                """,
                ["{\(pairs.map { String($0.0) }.joined(separator: ","))}", "{\(pairs.map { String($0.1) }.joined(separator: ","))}"],
                on: app.database)
            #expect(rows.count == pairs.count)
            for row in rows {
                let amount = Int64(row[0]!)!
                let point = Int(row[1]!)!
                #expect(Int64(row[2]!) == Money.percentage(of: amount, basisPoints: point), "\(amount) × \(point) bp")
            }
        }
    }

    /// A coupon row made by SQL, its id.
    static func coupon(
        _ app: TestApp, percent: Int? = nil, amount: Int64? = nil, products: [String] = [], categories: [String] = []
    ) async throws -> String {
        try await sql(
            """
            INSERT INTO coupons (code, kind, percent_basis_points, amount_off, currency, product_ids, categories)
            VALUES ('R' || substr(md5(random()::text), 1, 10), CASE WHEN $1 = '' THEN 'amount' ELSE 'percent' END,
                    NULLIF($1, '')::int, NULLIF($2, '')::bigint, CASE WHEN $2 = '' THEN NULL ELSE 'JMD' END, $3::uuid[], $4::text[])
            RETURNING id
            """,
            [
                percent.map(String.init) ?? "", amount.map(String.init) ?? "", "{\(products.joined(separator: ","))}",
                "{\(categories.map { "\"\($0)\"" }.joined(separator: ","))}",
            ], on: app.database)[0][0]!
    }

    static func discounts(_ app: TestApp, coupon: String, _ lines: [(String, Int64)]) async throws -> [Int64] {
        let answer = try await sql(
            "SELECT coupon_discounts(c, $2::uuid[], $3::bigint[]) FROM coupons c WHERE c.id = $1",
            [coupon, "{\(lines.map(\.0).joined(separator: ","))}", "{\(lines.map { String($0.1) }.joined(separator: ","))}"],
            on: app.database)[0][0]!
        return answer.trimmingCharacters(in: CharacterSet(charactersIn: "{}")).split(separator: ",").map { Int64($0)! }
    }

    @Test("shares add up to the coupon exactly, none above its line; limited to products or categories; an amount larger than the cart")
    func discountsShareExactly() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            var products: [String] = []
            for (index, category) in ["Pantry", "Pantry", "Dairy", "Frozen"].enumerated() {
                products.append(try await app.addProduct("Line \(index)", category: category, at: store))
            }
            let lines: [(String, Int64)] = [(products[0], 333), (products[1], 333), (products[2], 334), (products[3], 7)]
            let subtotal = lines.reduce(0) { $0 + $1.1 }

            for points in [1, 333, 1_000, 1_250, 3_333, 5_000, 9_999, 10_000] {
                let shares = try await Self.discounts(app, coupon: try await Self.coupon(app, percent: points), lines)
                #expect(shares.reduce(0, +) == Money.percentage(of: subtotal, basisPoints: points), "\(points) bp")
                for (share, line) in zip(shares, lines) { #expect((0...line.1).contains(share), "\(points) bp: \(share) of \(line.1)") }
            }

            let byProduct = try await Self.discounts(app, coupon: try await Self.coupon(app, percent: 5_000, products: [products[2]]), lines)
            #expect(byProduct == [0, 0, 167, 0])
            let byCategory = try await Self.discounts(app, coupon: try await Self.coupon(app, percent: 1_000, categories: ["Pantry"]), lines)
            #expect(byCategory[2] == 0 && byCategory[3] == 0)
            #expect(byCategory[0] + byCategory[1] == Money.percentage(of: 666, basisPoints: 1_000))
            let either = try await Self.discounts(
                app, coupon: try await Self.coupon(app, amount: 100, products: [products[3]], categories: ["Dairy"]), lines)
            #expect(either[0] == 0 && either[1] == 0 && either.reduce(0, +) == 100)

            let larger = try await Self.discounts(app, coupon: try await Self.coupon(app, amount: 1_000_000), lines)
            #expect(larger == lines.map(\.1))
            let three = try await Self.discounts(app, coupon: try await Self.coupon(app, amount: 2), lines)
            #expect(three.reduce(0, +) == 2)
            #expect(three.allSatisfy { $0 <= 1 })
            // 2 over 1,007: every share rounds down to 0, remainders 666, 666, 668 and 14 (× 1/1,007).
            // The largest remainder takes a unit, then of the two tied the lower product id.
            let lowerOfTied = products[0].lowercased() < products[1].lowercased() ? 0 : 1
            #expect(three == [lowerOfTied == 0 ? 1 : 0, lowerOfTied == 1 ? 1 : 0, 1, 0])
            let nothing = try await Self.discounts(app, coupon: try await Self.coupon(app, percent: 1_000, products: [UUID().uuidString]), lines)
            #expect(nothing == [0, 0, 0, 0])
        }
    }
}
